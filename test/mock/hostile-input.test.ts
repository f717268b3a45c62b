/**
 * Whatever a client sends under the body limit, the mock answers a bounded 4xx and changes nothing: the
 * validation work and the error answer stay small (at most 50 errors listed, with a count; under 64 KiB), no
 * answer carries a stack trace or a file path, and integer path parameters are read only in their canonical
 * form.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { MAX_LISTED_ERRORS } from "../../src/mock/validation/cap-field-errors.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";

const { mock, api } = createHarness();
const KIB = 1024;
const links = (count: number) => Array.from({ length: count }, () => ({}));
const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

/** An invalid body's answer: 400, small, at most 50 errors, a count, and nothing changed. */
async function expectBoundedRefusal(send: () => request.Test): Promise<{ detail: string; errors: unknown[] }> {
  const before = JSON.stringify(mock.store.state);
  const response = await send().expect(400);
  expect(response.text.length).toBeLessThan(64 * KIB);
  expect(response.body.errors.length).toBeGreaterThan(0);
  expect(response.body.errors.length).toBeLessThanOrEqual(MAX_LISTED_ERRORS);
  expect(JSON.stringify(mock.store.state)).toBe(before);
  return response.body;
}

describe("bounded validation work and error answers", () => {
  const agent = { agent_first_name: "A", agent_last_name: "B", email: "a@b.example" };

  const WIDE = {
    in: "body",
    pointer: "",
    detail:
      "The body holds an array or object of more than 1000 members; no field of this service holds more than 100.",
  };

  it("refuses 40,000 social links, or 30,000 fields, before parsing them", async () => {
    const fields = Object.fromEntries(Array.from({ length: 30_000 }, (_, index) => [`field${index}`, "x"]));
    for (const send of [
      () => api("post", "/agent_card/").send({ ...agent, social_media_links: links(40_000) }),
      () => api("put", "/agent_card/1003").send({ social_media_links: links(40_000) }),
      () => api("put", "/property/1001").send(fields),
      () => request(mock.app).patch("/__db/properties/1001").send(fields),
    ]) {
      const { errors } = await expectBoundedRefusal(send);
      expect(errors).toEqual([WIDE]);
    }
  });

  it("looks for the errors of 900 bad social links in a bounded part of them, and lists 50 with a count", async () => {
    for (const send of [
      () => api("post", "/agent_card/").send({ ...agent, social_media_links: links(900) }),
      () => api("put", "/agent_card/1003").send({ social_media_links: links(900) }),
    ]) {
      const { detail, errors } = await expectBoundedRefusal(send);
      // Every item has 3 errors: 2,701 in all, of which the bounded copy finds those of its first 64 items.
      expect(detail).toMatch(
        /^The request breaks the contract in at least 1[0-9]{2} places; the first 50 are listed\.$/,
      );
      expect(errors).toContainEqual({
        in: "body",
        pointer: "/social_media_links",
        detail: expect.stringContaining("50 items"),
      });
    }
  });

  it("does the same with 900 unknown fields", async () => {
    const fields = Object.fromEntries(Array.from({ length: 900 }, (_, index) => [`field${index}`, "x"]));
    const { detail } = await expectBoundedRefusal(() => api("put", "/property/1001").send(fields));
    expect(detail).toMatch(/in at least 1[0-9]{2} places; the first 50 are listed/);
  });

  it("refuses nesting 20,000 levels deep before parsing it, and nesting 33 deep", async () => {
    for (const levels of [20_000, 32]) {
      const { errors } = await expectBoundedRefusal(() =>
        api("put", "/property/1001").send(`{"street":${deep(levels)}}`),
      );
      expect(errors).toEqual([
        { in: "body", pointer: "", detail: "The body nests deeper than 32 levels; no field of this service does." },
      ]);
    }
    // Brackets inside strings are text, not nesting.
    await api("put", "/property/1001")
      .send({ street: "[".repeat(100), city: '{"\\[' })
      .expect(200);
  });

  it("cuts long keys and values in the errors it lists", async () => {
    const key = "k".repeat(500_000);
    const { errors } = await expectBoundedRefusal(() =>
      api("put", "/property/1001").send({ [key]: "x", street: "s".repeat(400_000), state: 7 }),
    );
    for (const error of errors as Array<{ pointer: string; detail: string }>) {
      expect(error.pointer.length).toBeLessThanOrEqual(300);
      expect(error.detail.length).toBeLessThanOrEqual(300);
    }
  });

  it("bounds raw writes the same way", async () => {
    const { body: record } = await request(mock.app).get("/__db/agents/1003").expect(200);
    await expectBoundedRefusal(() =>
      request(mock.app)
        .put("/__db/agents/1003")
        .send({ ...record, social_media_links: links(900) }),
    );
    const fields = Object.fromEntries(Array.from({ length: 900 }, (_, index) => [`field${index}`, 1]));
    const { detail } = await expectBoundedRefusal(() => request(mock.app).patch("/__db/properties/1001").send(fields));
    expect(detail).toMatch(
      /^The record breaks the stored shape of properties in at least [0-9]{2,3} places; the first 50 are listed\.$/,
    );
  });
});

describe("no stack trace or file path in any answer", () => {
  const leaks = /\n\s+at |\.ts\b|\.js\b|\/work\/|node_modules|file:\/\//;

  it("not in the answers to hostile requests", async () => {
    const answers = await Promise.all([
      request(mock.app).post("/__db/properties").set("content-type", "application/json").send("{oops"),
      request(mock.app)
        .post("/__db/properties")
        .send({ uid: 1, virtual_tours: { a: null } }),
      request(mock.app).post("/__db/properties").set("content-type", "application/json").send('"\\ud800"'),
      request(mock.app).get("/__db/properties/%E0%A4%A"),
      request(mock.app).get("/__db/properties?_embed=x&title_like=(a+)+$"),
      api("put", "/property/1001").send("{oops"),
      api("put", "/property/1001").send(Buffer.from([0xff, 0xfe, 0x7b])),
      api("get", "/property/%E0%A4%A"),
      request(mock.app).get("/autologin/%E0%A4%A"),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.text).not.toMatch(leaks);
    }
  });

  it("not in the answer to a bug of the mock either: the log has the stack, the client a problem", async () => {
    const lines: string[] = [];
    const buggy = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      log: (line) => lines.push(line),
    });
    const fail = () => {
      throw new Error("a bug in /work/somewhere/secret.ts");
    };
    buggy.store.counts = fail;
    buggy.store.records = fail;
    buggy.store.accountByKey = fail;
    for (const path of ["/healthz", "/__db/properties", "/api/v1/object/template_base"]) {
      const answer = await request(buggy.app)
        .get(path)
        .set({ ...DEMO, "content-type": "application/json" })
        .expect(500);
      expect(answer.body).toMatchObject({ title: "Internal Error", status: 500 });
      expect(answer.text).not.toMatch(leaks);
      expect(answer.text).not.toContain("secret");
    }
    expect(lines.join("\n")).toContain("secret.ts");
  });
});

describe("integer path parameters are canonical decimal safe integers", () => {
  it.each(["01001", "001001", "+1001", "1001.0", "9007199254740993", "99999999999999999999999"])(
    "%s names no property",
    async (nid) => {
      const answers = [
        await api("get", `/property/${nid}`),
        await api("put", `/property/${nid}`).send({ city: "Nowhere" }),
      ];
      for (const answer of answers) {
        expect([400, 404]).toContain(answer.status);
        expect(answer.text).not.toMatch(/9007199254740992|e\+/);
      }
      expect(mock.store.record("properties", 1001)!.city).toBe("Austin");
    },
  );

  it("answers 404 to a leading zero and to a number above 2^53-1, quoting the parameter as sent", async () => {
    for (const [path, method] of [
      ["/property/01001", "get"],
      ["/agent_card/01003", "post"],
      ["/document/01004", "get"],
      ["/properties/01", "get"],
      ["/agent_card/01003", "delete"],
    ] as const) {
      const { body } = await api(method, path).expect(404);
      expect(body.detail).toContain(path.split("/").pop());
    }
    const { body } = await api("get", "/property/9007199254740993").expect(404);
    expect(body.detail).toContain("9007199254740993");
    expect(JSON.stringify(body)).not.toContain("9007199254740992");
    await api("get", "/property/1001").expect(200);
    await api("get", "/properties/1").expect(200);
    expect(mock.store.record("agents", 1003)).toBeDefined();
  });
});
