/** A service profile that cannot be used: not JSON, another version, unknown keys, or contradicting the document. */
export class ProfileRefused extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(
      `The service profile ${source} is refused (a profile is used whole or not at all):\n  ${problems.join("\n  ")}`,
    );
    this.name = "ProfileRefused";
  }
}
