/**
 * The parts of the core that replaced a Node module, each held to the Node module it replaced: the auto-login
 * tokens' HMAC-SHA-256 to node:crypto (so a --db state's links stay valid), the admin guard's IPv6 check to
 * node:net's isIP, and the fixtures module the browser seeds from to fixtures/db.json.
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultFixturesModule } from "../../src/fixtures/default-fixtures-module.ts";
import { DEFAULT_FIXTURES_JSON } from "../../src/generated/default-fixtures.ts";
import { hostnameOf } from "../../src/mock/http/allowed-hosts.ts";
import { AutologinTokens } from "../../src/mock/services/autologin-tokens.ts";
import { hmacSha256, toHex } from "../../src/mock/services/hmac-sha256.ts";
import { PACKAGE_ROOT } from "../support/start-process.ts";

describe("the host-neutral replacements of Node modules", () => {
  it("hmacSha256 equals node:crypto's HMAC-SHA-256 for any key and message, multi-byte text and long keys too", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 150 }),
        fc.string({ unit: "grapheme", maxLength: 300 }),
        (key, message) => {
          expect(toHex(hmacSha256(key, message))).toBe(createHmac("sha256", key).update(message).digest("hex"));
        },
      ),
      { seed: 30, numRuns: 300 },
    );
  });

  it("signs auto-login tokens as node:crypto signed them: a token issued before the change is still valid", () => {
    const secret = "a".repeat(64);
    const tokens = new AutologinTokens({ secret });
    const token = tokens.issue(1001);
    const signature = createHmac("sha256", secret).update("1:1001").digest().subarray(0, 16).toString("hex");
    expect(token).toBe(`1-1001-${signature}`);
    expect(tokens.propertyOf(token)).toBe(1001);
    expect(
      tokens.propertyOf(`1-1001-${signature.replace(/.$/, (last) => (last === "0" ? "1" : "0"))}`),
    ).toBeUndefined();
  });

  it("tells an IPv6 host as node:net's isIP does", () => {
    const candidate = fc.oneof(
      fc.ipV6(),
      fc.ipV4(),
      fc.stringMatching(/^[0-9a-fA-F:.]{0,45}$/),
      fc.constantFrom(
        "::",
        "::1",
        "1::",
        "::ffff:1.2.3.4",
        "1:2:3:4:5:6:7::",
        "1:2:3:4:5:6:7:8:9",
        ":::",
        "1::2::3",
        "::ffff:256.1.1.1",
        "::01.2.3.4",
      ),
    );
    fc.assert(
      fc.property(candidate, (address) => {
        expect(hostnameOf(`[${address}]:4010`) !== undefined, address).toBe(isIP(address) === 6);
      }),
      { seed: 30, numRuns: 2000 },
    );
  });

  it("ships the committed fixtures as the module the browser seeds from (npm run fixtures writes both)", () => {
    const committed = readFileSync(join(PACKAGE_ROOT, "fixtures/db.json"), "utf8");
    expect(JSON.parse(DEFAULT_FIXTURES_JSON)).toEqual(JSON.parse(committed));
    const generated = readFileSync(join(PACKAGE_ROOT, "src/generated/default-fixtures.ts"), "utf8");
    expect(
      generated === defaultFixturesModule(committed),
      "src/generated/default-fixtures.ts is stale: run `npm run fixtures`",
    ).toBe(true);
  });
});
