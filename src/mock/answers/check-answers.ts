import { ANSWERS_VERSION, type AnswersDocument } from "../../contract/usage/answers-document.ts";

/**
 * An answers document (`property-listing-contract --write-answers`) checked as the mock serves it, or why not: its
 * version, and each test and interaction of the shape it serves. The published schema (`spec/answers.schema.json`)
 * says the rest; this check is the mock's own, with no validator to load in a browser.
 */
export function checkAnswers(value: unknown): { ok: true; answers: AnswersDocument } | { ok: false; problem: string } {
  const refuse = (problem: string) => ({ ok: false as const, problem });
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return refuse("an answers document is a JSON object");
  const version = (value as { answersVersion?: unknown }).answersVersion;
  if (version !== ANSWERS_VERSION)
    return refuse(
      `answersVersion is ${JSON.stringify(version) ?? "missing"}; this kit reads version ${ANSWERS_VERSION} ` +
        `(write the answers again with this kit: property-listing-contract --usage <file> --write-answers ` +
        `<file>)`,
    );
  const { tests, usage } = value as { tests?: unknown; usage?: unknown };
  if (usage === null || typeof usage !== "object" || !Array.isArray((usage as { tests?: unknown }).tests))
    return refuse("/usage must be the usage document the answers were made from");
  if (!Array.isArray(tests)) return refuse("/tests must be a list of the usage's tests");
  for (const [t, test] of tests.entries()) {
    if (test === null || typeof test !== "object" || typeof (test as { name?: unknown }).name !== "string")
      return refuse(`/tests/${t} must be a test with a name`);
    const interactions = (test as { interactions?: unknown }).interactions;
    if (!Array.isArray(interactions)) return refuse(`/tests/${t}/interactions must be a list`);
    for (const [i, answer] of interactions.entries()) {
      const at = `/tests/${t}/interactions/${i}`;
      if (
        answer === null ||
        typeof answer !== "object" ||
        typeof (answer as { operation?: unknown }).operation !== "string"
      )
        return refuse(`${at} must name its operation`);
      if ("notSent" in answer) continue;
      const { status, headers, mediaType, path } = answer as {
        status?: unknown;
        headers?: unknown;
        mediaType?: unknown;
        path?: unknown;
      };
      if (typeof path !== "string") return refuse(`${at}/path must be the path the replay sent`);
      if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599)
        return refuse(`${at}/status must be an HTTP status`);
      if (
        headers === null ||
        typeof headers !== "object" ||
        Object.values(headers).some((header) => typeof header !== "string")
      )
        return refuse(`${at}/headers must be an object of strings`);
      if (mediaType !== null && typeof mediaType !== "string")
        return refuse(`${at}/mediaType must be a media type or null`);
    }
  }
  return { ok: true, answers: value as AnswersDocument };
}
