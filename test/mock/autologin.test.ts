/** Auto-login tokens (section 4.1's `uri`): signed under a random secret, so unforgeable, and bounded in number. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { AutologinTokens } from "../../src/mock/services/autologin-tokens.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const headers = { ...DEMO, "content-type": "application/json" };
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
const newMock = () => createMockServer({ fixtures: tinyFixtures(), contract: sharedContract() });
const tokenPath = async (mock: ReturnType<typeof newMock>) =>
  new URL((await request(mock.app).post("/api/v1/object/property").set(headers).send(address).expect(200)).body.uri)
    .pathname;

describe("auto-login tokens", () => {
  it("sign in with the token the mock issued, and with nothing derived from it", async () => {
    const mock = newMock();
    const path = await tokenPath(mock);
    await request(mock.app).get(path).expect(200);
    const [serial, nid, signature] = path.split("/").at(-1)!.split("-") as [string, string, string];
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    for (const forged of [
      `${serial}-${nid}-${flipped}`,
      `${serial}-1002-${signature}`,
      `${Number(serial) + 1}-${nid}-${signature}`,
      `${serial}-${nid}`,
    ]) {
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

/** The `uri` of a create sent with this `Host` header, and of an edit of the same property. */
async function urisFor(mock: ReturnType<typeof createMockServer>, host: string): Promise<string[]> {
  const created = (
    await request(mock.app).post("/api/v1/object/property").set(headers).set("Host", host).send(address).expect(200)
  ).body as { nid: string; uri: string };
  const edited = (
    await request(mock.app)
      .put(`/api/v1/object/property/${created.nid}`)
      .set(headers)
      .set("Host", host)
      .send({ title: "Edited" })
      .expect(200)
  ).body as { uri: string };
  return [created.uri, edited.uri].map((uri) => uri.replace(/\/autologin\/.*$/, ""));
}

describe("the auto-login uri's address (section 4.1: {base_url}/<autologin_path>/<ACCESS_TOKEN>)", () => {
  it("is the address the client used when no base URL is set and the mock answers to that host", async () => {
    const mock = newMock();
    expect(await urisFor(mock, "localhost:4321")).toEqual(["http://localhost:4321", "http://localhost:4321"]);
    expect(await urisFor(mock, "127.0.0.1:5000")).toEqual(["http://127.0.0.1:5000", "http://127.0.0.1:5000"]);
    expect(await urisFor(mock, "[::1]:6000")).toEqual(["http://[::1]:6000", "http://[::1]:6000"]);
    expect(await urisFor(mock, "LocalHost")).toEqual(["http://localhost", "http://localhost"]);
  });

  it("is a listed host's address (--allowed-hosts), and never a host the mock does not answer to", async () => {
    const mock = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      allowedHosts: ["mock.internal"],
    });
    const { url } = await mock.listen(0, "127.0.0.1");
    try {
      expect(await urisFor(mock, "mock.internal:4010")).toEqual([
        "http://mock.internal:4010",
        "http://mock.internal:4010",
      ]);
      // A name a rebinding page reached the mock through, a malformed header or port: the mock's own address.
      for (const host of ["attacker.example:4010", "localhost:99999", "local host", "mock.internal.evil.example"]) {
        expect(await urisFor(mock, host), host).toEqual([url, url]);
      }
    } finally {
      await mock.close();
    }
  });

  it("is the base URL whenever one is set, whatever host the client used", async () => {
    const mock = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      baseUrl: "https://mock.example:8443/",
    });
    expect(await urisFor(mock, "localhost:4321")).toEqual(["https://mock.example:8443", "https://mock.example:8443"]);
  });
});
