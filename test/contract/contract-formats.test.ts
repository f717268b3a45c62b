/**
 * The contract's `uri` format: a quick path for plain http(s) URLs that must answer exactly as RFC 3986's full pattern.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isUri } from "../../src/contract/contract-formats.ts";

const { fullFormats } = createRequire(import.meta.url)(
  "ajv-formats/dist/formats.js",
) as typeof import("ajv-formats/dist/formats.js");
const fullUri = fullFormats.uri as (value: string) => boolean;

/** Strings close to URLs: a scheme-like start, then characters among those URLs use and a few they must not. */
const urlLike = fc
  .tuple(
    fc.constantFrom("http://", "https://", "HTTPS://", "ftp://", "http:/", "http:", "//", "", "mailto:"),
    fc.string({
      unit: fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@/?#%[] \t\"<>\\^`{|}éü".split("")),
      maxLength: 40,
    }),
  )
  .map(([start, rest]) => start + rest);

describe("uri format", () => {
  it("answers as ajv-formats' full RFC 3986 pattern on generated URLs and near-URLs", () => {
    fc.assert(
      // A boolean property (fast-check reports the counterexample): an expect() per run cost four times the check.
      fc.property(
        fc.oneof(urlLike, fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string()),
        (value) => isUri(value) === fullUri(value),
      ),
      { numRuns: 20_000, seed: 42 },
    );
  });

  it.each([
    ["https://tours.property-listing.example/1101", true],
    ["http://127.0.0.1:4010/autologin/abc", true],
    ["https://files.property-listing.example/a%20b.pdf?x=1#p", true],
    ["urn:isbn:0451450523", true],
    ["https://exa mple.com", false],
    ["https://example.com/<script>", false],
    ["not a uri", false],
    ["", false],
  ])("%j is a uri: %s", (value, expected) => {
    expect(isUri(value)).toBe(expected);
    expect(fullUri(value)).toBe(expected);
  });
});
