/** One header of a request as a curl line shows it. */
export interface CurlHeader {
  name: string;
  value: string;
  /**
   * What to show instead of the value unless values are revealed, for credentials: a shell expression such as
   * `${CONTRACT_TOKEN}` or `${CONTRACT_TOKEN}-not-this-one`, expanded inside double quotes.
   */
  masked?: string;
}

/**
 * A copy-pasteable curl command that sends a request again. Credentials appear as environment variables
 * (`"API-KEY: ${CONTRACT_API_KEY}"`) unless `reveal` is set, so a CI log never shows a secret.
 *
 * @example
 * curlCommand({ method: "GET", url: "https://api.example/api/v1/object/property/12",
 *   headers: [{ name: "API-KEY", value: "k", masked: "${CONTRACT_API_KEY}" }] })
 * // curl -X GET 'https://api.example/api/v1/object/property/12' -H "API-KEY: ${CONTRACT_API_KEY}"
 */
export function curlCommand({
  method,
  url,
  headers,
  body,
  reveal = false,
}: {
  method: string;
  url: string;
  headers: CurlHeader[];
  body?: unknown;
  reveal?: boolean;
}): string {
  const parts = ["curl", "-X", method, singleQuoted(url)];
  for (const header of headers) {
    parts.push(
      "-H",
      header.masked !== undefined && !reveal
        ? `"${header.name}: ${header.masked}"`
        : singleQuoted(`${header.name}: ${header.value}`),
    );
  }
  if (body !== undefined) parts.push("--data-raw", singleQuoted(JSON.stringify(body)));
  return parts.join(" ");
}

/** Quotes a word for a POSIX shell: inside single quotes nothing is special but the quote itself. */
function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
