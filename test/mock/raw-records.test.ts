/**
 * Raw records under /__db: every write is checked against the stored shape of its collection, the nid
 * sequence stays an exact, increasing integer whatever is written, and list filters match literally.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createHarness } from "../support/mock-harness.ts";
import { OTHER } from "../support/tiny-fixtures.ts";

const { mock, api } = createHarness();
const db = () => request(mock.app);
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };
const unchanged = () => JSON.stringify(mock.store.state);

describe("raw writes are checked against the stored shape", () => {
  it("refuses a partial property with 400, listing the fields, and stays up (it used to crash)", async () => {
    const before = unchanged();
    const { body, headers } = await db()
      .post("/__db/properties")
      .send({ uid: 1, virtual_tours: { a: null } })
      .expect(400);
    expect(headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(body.title).toBe("Invalid Request");
    const pointers = body.errors.map((error: { pointer: string }) => error.pointer);
    expect(pointers).toContain("/street");
    expect(pointers).toContain("/virtual_tours/a");
    expect(unchanged()).toBe(before);
    await api("get", "/property/1001").expect(200);
  });

  it("refuses an id that is not a positive safe integer, and creates keep answering numeric nids", async () => {
    const property = (await db().get("/__db/properties/1001").expect(200)).body;
    for (const id of ["abc", 0, -3, 1.5]) {
      const { body } = await db()
        .post("/__db/properties")
        .send({ ...property, id })
        .expect(400);
      expect(body.errors.map((error: { pointer: string }) => error.pointer)).toEqual(["/id"]);
    }
    const { body: created } = await api("post", "/property").send(address).expect(200);
    expect(created.nid).toMatch(/^[1-9][0-9]*$/);
  });

  it("refuses ids above 2^53-1 without quoting a rounded number", async () => {
    const property = (await db().get("/__db/properties/1001").expect(200)).body;
    const sent = JSON.stringify({ ...property, id: 1 }).replace('"id":1', '"id":9007199254740993');
    const { text } = await db().post("/__db/properties").set("content-type", "application/json").send(sent).expect(400);
    expect(text).not.toContain("9007199254740992");
    expect(JSON.parse(text).errors[0]).toMatchObject({
      pointer: "/id",
      detail: expect.stringContaining("must be <= 9007199254740991"),
    });
  });

  it("checks a PATCH on the record it would leave, and refuses unknown fields", async () => {
    const before = unchanged();
    const { body } = await db()
      .patch("/__db/agents/1003")
      .send({ email: 42, social_media_links: [{ service: "x" }], nickname: "D" })
      .expect(400);
    expect(body.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual([
      "/email",
      "/nickname",
      "/social_media_links/0/url",
      "/social_media_links/0/weight",
    ]);
    expect(unchanged()).toBe(before);
    await db().patch("/__db/agents/1003").send({ email: "new@harbor.example" }).expect(200);
    expect(mock.store.record("agents", 1003)!.email).toBe("new@harbor.example");
  });

  it("replaces a whole record with PUT, keeping the id of the path", async () => {
    const { body: agent } = await db().get("/__db/agents/1003").expect(200);
    const { body } = await db()
      .put("/__db/agents/1003")
      .send({ ...agent, id: 77, name: "Dana W." })
      .expect(200);
    expect(body).toMatchObject({ id: 1003, name: "Dana W." });
    await db().put("/__db/agents/1003").send({ name: "only a name" }).expect(400);
  });

  it("still prepares states the API would not make: another account's document, an agent past the seats", async () => {
    const { body: document } = await db().get("/__db/documents/1004").expect(200);
    const { id: _id, ...fields } = document;
    await db()
      .post("/__db/documents")
      .send({ ...fields, uid: 2, property_reference: 1001 })
      .expect(201);
    const { body: agent } = await db().get("/__db/agents/1003").expect(200);
    const { id: _agentId, ...agentFields } = agent;
    for (const n of [1, 2, 3])
      await db()
        .post("/__db/agents")
        .send({ ...agentFields, email: `extra${n}@harbor.example` })
        .expect(201);
    expect(mock.store.agentCountOf(1)).toBe(4); // the demo account has 3 seats
  });

  it("refuses a second record under an id that is taken, and a second account with the same API key", async () => {
    const { body: document } = await db().get("/__db/documents/1004").expect(200);
    expect((await db().post("/__db/documents").send(document).expect(409)).body.title).toBe("Id Already Taken");
    await db().post("/__db/accounts").send({ apiKey: "demo-key", token: "x", agentSeats: 1, name: "Twin" }).expect(409);
  });

  it("refuses a body that is not an object, and nesting deeper than a record has", async () => {
    await db().post("/__db/properties").send([1, 2]).expect(400);
    let deep = "1";
    for (let level = 0; level < 20_000; level += 1) deep = `[${deep}]`;
    const { body: property } = await db().get("/__db/properties/1001").expect(200);
    const sent = JSON.stringify({ ...property, open_houses: "DEEP" }).replace('"DEEP"', deep);
    const { body } = await db()
      .put("/__db/properties/1001")
      .set("content-type", "application/json")
      .send(sent)
      .expect(400);
    expect(body.errors[0].detail).toContain("nests deeper than 32 levels");
    expect(mock.store.record("properties", 1001)!.open_houses).toBeNull();
  });
});

describe("the nid sequence", () => {
  it("is never moved by a reference field such as main_image", async () => {
    await db().patch("/__db/properties/1001").send({ main_image: "9007199254740991", logo: "5000" }).expect(200);
    const { body } = await api("post", "/property").send(address).expect(200);
    expect(Number(body.nid)).toBeLessThan(5000);
  });

  it("stays increasing past a raw id, and is not moved by an id from 2^52 up (no going on from 2^53-1)", async () => {
    const { body: agent } = await db().get("/__db/agents/1003").expect(200);
    await db()
      .post("/__db/agents")
      .send({ ...agent, id: 50_000, email: "far@harbor.example" })
      .expect(201);
    expect((await api("post", "/property").send(address).expect(200)).body.nid).toBe("50001");
    await db()
      .post("/__db/agents")
      .send({ ...agent, id: Number.MAX_SAFE_INTEGER, email: "last@harbor.example" })
      .expect(201);
    expect((await api("post", "/property").send(address).expect(200)).body.nid).toBe("50002");
    const { id: _id, ...fields } = agent;
    expect(
      (
        await db()
          .post("/__db/agents")
          .send({ ...fields, email: "next@harbor.example" })
          .expect(201)
      ).body.id,
    ).toBe(50003);
    expect(
      (
        await api("post", "/agent_card/", OTHER)
          .send({ agent_first_name: "A", agent_last_name: "B", email: "ab@harbor.example" })
          .expect(200)
      ).body.nid,
    ).toBe("50004");
    expect((await api("post", `/agent_card/${Number.MAX_SAFE_INTEGER}`).expect(200)).body.email).toBe(
      "last@harbor.example",
    );
  });
});

describe("list filters match literally", () => {
  it("answers a _like that would be a catastrophic regular expression, matching it as text", async () => {
    // json-server builds new RegExp("(a+)+$", "i") from the value: it would match this title (and, with a "!" after
    // the a's, backtrack for hours). Escaped first, the value is text that no title holds.
    await db()
      .patch("/__db/properties/1001")
      .send({ title: "a".repeat(20) })
      .expect(200);
    const { body } = await db().get("/__db/properties").query({ title_like: "(a+)+$", q: "(x+x+)+y" }).expect(200);
    expect(body).toEqual([]);
    await db().patch("/__db/properties/1002").send({ title: "Cottage (a+)+$ special" }).expect(200);
    const matched = await db().get("/__db/properties").query({ title_like: "(A+)+$" }).expect(200);
    expect(matched.body.map((record: { id: number }) => record.id)).toEqual([1002]);
  });

  it("treats _like and q as case-insensitive substrings, not patterns", async () => {
    const like = async (query: Record<string, string>) =>
      (await db().get("/__db/properties").query(query).expect(200)).body.map((record: { id: number }) => record.id);
    expect(await like({ title_like: "CRAFTSMAN" })).toEqual([1001]);
    expect(await like({ title_like: "^Craftsman" })).toEqual([]);
    expect(await like({ title_like: "Elm.cottage" })).toEqual([]);
    expect(await like({ q: "ELM COTTAGE" })).toEqual([1002]);
    expect(await like({ q: "3d TOUR" })).toEqual([1001]); // q looks into nested values
    expect(await like({ q: ".*" })).toEqual([]);
  });

  it("keeps json-server's other filters, sorting and paging", async () => {
    const ids = async (query: Record<string, string>) =>
      (await db().get("/__db/properties").query(query).expect(200)).body.map((record: { id: number }) => record.id);
    expect(await ids({ uid: "2" })).toEqual([1002]);
    expect(await ids({ uid: "1", uid_ne: "1" })).toEqual([]);
    expect(await ids({ id_gte: "1002" })).toEqual([1002]);
    expect(await ids({ id_lte: "1001" })).toEqual([1001]);
    expect(await ids({ _sort: "id", _order: "desc" })).toEqual([1002, 1001]);
    const page = await db().get("/__db/properties").query({ _page: "2", _limit: "1" }).expect(200);
    expect(page.body.map((record: { id: number }) => record.id)).toEqual([1002]);
    expect(page.headers["x-total-count"]).toBe("2");
  });

  it("refuses an _embed of unrelated records, unknown places with 404; ignores what json-server ignores", async () => {
    expect((await db().get("/__db/properties?_embed=agents").expect(400)).body.detail).toContain("_embed");
    // json-server drops a filter on a field no record has, and options it does not know.
    expect((await db().get("/__db/properties?nickname=x&_unknown=1").expect(200)).body).toHaveLength(2);
    await db().get("/__db/nothing").expect(404);
    await db().get("/__db/properties/01001").expect(404);
    await db().get("/__db/properties/1001/extra").expect(404);
    await db().delete("/__db/properties").expect(405);
  });
});
