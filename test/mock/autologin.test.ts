/** Auto-login tokens (section 4.1's `uri`): signed under a random secret, so unforgeable, and bounded in number. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/mock/create-mock-server.ts";
import { AutologinTokens } from "../../src/mock/services/autologin-tokens.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const headers = { ...DEMO, "content-type": "application/json" };
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
const newMock = () => createMockServer({ fixtures: tinyFixtures(), contract: sharedContract() });
const tokenPath = async (mock: ReturnType<typeof newMock>) =>
  new URL((await request(mock.app).post("/api/v1/object/property").set(headers).send(address).expect(200)).body.uri).pathname;

describe("auto-login tokens", () => {
  it("sign in with the token the mock issued, and with nothing derived from it", async () => {
    const mock = newMock();
    const path = await tokenPath(mock);
    await request(mock.app).get(path).expect(200);
    const [serial, nid, signature] = path.split("/").at(-1)!.split("-") as [string, string, string];
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    for (const forged of [`${serial}-${nid}-${flipped}`, `${serial}-1002-${signature}`, `${Number(serial) + 1}-${nid}-${signature}`, `${serial}-${nid}`]) {
      await request(mock.app).get(`/autologin/${forged}`).expect(404);
    }
  });

  it("are signed under a secret drawn for each state, not one written in the source", async () => {
    const first = await tokenPath(newMock());
    const second = await tokenPath(newMock());
    expect(first.split("-").slice(0, 2)).toEqual(second.split("-").slice(0, 2)); // the same request, the same serial
    expect(first).not.toBe(second);
    const other = newMock();
    await request(other.app).get(first).expect(404);
  });

  it("expire oldest first beyond their bound", () => {
    const tokens = new AutologinTokens({ live: 3 });
    const issued = [1001, 1002, 1003, 1004].map((nid) => tokens.issue(nid));
    expect(issued.map((token) => tokens.propertyOf(token))).toEqual([undefined, 1002, 1003, 1004]);
  });
});
