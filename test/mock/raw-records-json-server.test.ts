/**
 * /__db as json-server 0.17's router serves it, over the mock's one state: paging with Link and X-Total-Count,
 * the operators and q as json-server defines them, _embed/_expand and nested routes where the records relate,
 * GET /__db/db; raw writes seen by the services at once; and what json-server's router would do with hostile input
 * (a RegExp from _like, JSONP, prototype keys, unbounded work) answered without a 5xx, changing nothing.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { MAX_EMBED_COMPARISONS, MAX_QUERY_PARAMETERS } from "../../src/mock/http/raw-records-query.ts";
import type { Database } from "../../src/mock/store/records.ts";
import { createHarness, sharedContract } from "../support/mock-harness.ts";
import { OTHER, tinyFixtures } from "../support/tiny-fixtures.ts";

const { mock, api } = createHarness();
const db = () => request(mock.app);
const ids = (body: Array<{ id: number }>) => body.map((record) => record.id);
const unchanged = () => JSON.stringify(mock.store.state);
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };

/** `count` more properties of the demo account, as raw writes, titled `Listing <n>`. */
async function addProperties(count: number): Promise<number[]> {
  const { body: model } = await db().get("/__db/properties/1001").expect(200);
  const { id: _id, ...fields } = model;
  const added: number[] = [];
  for (let n = 1; n <= count; n += 1) {
    const { body } = await db()
      .post("/__db/properties")
      .send({ ...fields, title: `Listing ${n}`, external_id: null, bedrooms: String(n) })
      .expect(201);
    added.push(body.id);
  }
  return added;
}

describe("json-server's list queries", () => {
  it("pages with _page and _limit, announcing the total in X-Total-Count and the other pages in Link", async () => {
    await addProperties(5); // 7 properties in all
    const page = await db().get("/__db/properties?_page=2&_limit=3").expect(200);
    expect(ids(page.body)).toHaveLength(3);
    expect(page.headers["x-total-count"]).toBe("7");
    const links = Object.fromEntries(
      [...page.headers.link!.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((match) => [match[2], new URL(match[1]!).search]),
    );
    expect(links).toEqual({
      first: "?_page=1&_limit=3",
      prev: "?_page=1&_limit=3",
      next: "?_page=3&_limit=3",
      last: "?_page=3&_limit=3",
    });
    expect(page.headers["access-control-expose-headers"]).toBeUndefined(); // the admin routes send no CORS header
    const last = await db().get("/__db/properties?_page=3&_limit=3").expect(200);
    expect(ids(last.body)).toHaveLength(1);
    const all = ids((await db().get("/__db/properties").expect(200)).body);
    expect([...ids(page.body), ...ids(last.body)]).toEqual(all.slice(3));
    expect((await db().get("/__db/properties").expect(200)).headers["x-total-count"]).toBeUndefined();
    const head = await db().head("/__db/properties?_page=1&_limit=3").expect(200);
    expect(head.headers["x-total-count"]).toBe("7");
    expect(head.text ?? "").toBe("");
  });

  it("slices with _start, _end and _limit, with X-Total-Count", async () => {
    const added = await addProperties(3);
    const all = [1001, 1002, ...added];
    const sliced = await db().get("/__db/properties?_start=1&_end=3").expect(200);
    expect(ids(sliced.body)).toEqual(all.slice(1, 3));
    expect(sliced.headers["x-total-count"]).toBe("5");
    expect(ids((await db().get("/__db/properties?_start=2&_limit=2").expect(200)).body)).toEqual(all.slice(2, 4));
  });

  it("filters with repeated values, _ne, _gte and _lte as json-server compares them", async () => {
    await addProperties(3); // bedrooms "1", "2", "3" of the demo account
    expect(ids((await db().get("/__db/properties?uid=1&uid=2").expect(200)).body)).toHaveLength(5);
    expect(ids((await db().get("/__db/properties?uid_ne=1").expect(200)).body)).toEqual([1002]);
    expect(ids((await db().get("/__db/properties?id_gte=1002&id_lte=1002").expect(200)).body)).toEqual([1002]);
    // json-server compares a filter's text with the stored value as JavaScript does: the stored values are text,
    // so "10" <= "3" and bedrooms_gte=10 matches a "3".
    const text = (await db().get("/__db/properties?bedrooms_gte=10&uid=1").expect(200)).body as Array<{
      bedrooms: string;
    }>;
    expect(text.map((record) => record.bedrooms).sort()).toEqual(["2", "3", "3"]);
  });

  it("searches every value, nested ones too, with q, and sorts by several fields", async () => {
    expect(ids((await db().get("/__db/properties?q=drive-BY").expect(200)).body)).toEqual([1001]); // a video's title
    expect(ids((await db().get("/__db/agents?q=INSTAGRAM").expect(200)).body)).toEqual([1003]);
    const added = await addProperties(2);
    const sorted = await db().get("/__db/properties?_sort=uid,bedrooms&_order=desc,asc").expect(200);
    expect(ids(sorted.body)).toEqual([1002, added[0], added[1], 1001]);
  });

  it("matches _like as text, case-insensitive, several values as alternatives", async () => {
    await db().patch("/__db/properties/1001").send({ title: "Loft [a-z]+ (x|y)" }).expect(200);
    expect(ids((await db().get("/__db/properties").query({ title_like: "[A-Z]+ (x|Y)" }).expect(200)).body)).toEqual([
      1001,
    ]);
    expect(ids((await db().get("/__db/properties").query({ title_like: "lof." }).expect(200)).body)).toEqual([]);
    expect(ids((await db().get("/__db/properties?title_like=elm&title_like=loft").expect(200)).body)).toEqual([
      1001, 1002,
    ]);
  });
});

describe("where the records relate", () => {
  it("embeds a property's documents and expands a document's property (property_reference)", async () => {
    const { body: property } = await db().get("/__db/properties/1001?_embed=documents").expect(200);
    expect(ids(property.documents)).toEqual([1004]);
    const { body: list } = await db().get("/__db/properties?_embed=documents").expect(200);
    expect(list.map((record: { id: number; documents: unknown[] }) => [record.id, record.documents.length])).toEqual([
      [1001, 1],
      [1002, 0],
    ]);
    const { body: document } = await db().get("/__db/documents/1004?_expand=property").expect(200);
    expect(document.property).toMatchObject({ id: 1001, title: "Craftsman bungalow" });
    expect(mock.store.record("properties", 1001)).not.toHaveProperty("documents"); // json-server embeds into a copy
  });

  it("refuses an _embed or _expand of records that do not relate, instead of an empty list per record", async () => {
    for (const query of [
      "_embed=agents",
      "_embed=nothing",
      "_embed=__proto__",
      "_expand=account",
      "_expand=__proto__",
    ]) {
      const { body } = await db().get(`/__db/properties?${query}`).expect(400);
      expect(body.errors[0].pointer).toBe(`/${query.split("=")[0]}`);
      expect(body.detail).toContain("property_reference");
    }
  });

  it("serves the nested routes: a property's documents, an account's records, and creates under them", async () => {
    expect(ids((await db().get("/__db/properties/1001/documents").expect(200)).body)).toEqual([1004]);
    expect(ids((await db().get("/__db/accounts/2/properties").expect(200)).body)).toEqual([1002]);
    expect(ids((await db().get("/__db/accounts/1/agents").expect(200)).body)).toEqual([1003]);
    const { body: document } = await db().get("/__db/documents/1004").expect(200);
    const { id: _id, property_reference: _reference, ...fields } = document;
    const created = await db()
      .post("/__db/properties/1002/documents")
      .send({ ...fields, uid: 2, title: "Upstairs" })
      .expect(201);
    expect(created.body).toMatchObject({ property_reference: 1002, title: "Upstairs" });
    expect(created.headers.location).toMatch(new RegExp(`/__db/documents/${created.body.id}$`));
    const { body: floorplans } = await api("get", "/property/1002", OTHER).expect(200);
    expect(Object.keys(floorplans.floorplans)).toEqual([String(created.body.id)]);
    await db().get("/__db/agents/1003/documents").expect(404);
    await db().put("/__db/properties/1001/documents").send({}).expect(405);
  });

  it("removes a property's documents with it, as json-server removes dependents, and nothing else", async () => {
    const { body: document } = await db().get("/__db/documents/1004").expect(200);
    const { id: _id, ...fields } = document;
    const dangling = (
      await db()
        .post("/__db/documents")
        .send({ ...fields, property_reference: 4242 })
        .expect(201)
    ).body.id as number;
    await db().delete("/__db/properties/1001").expect(200);
    await db().get("/__db/documents/1004").expect(404);
    await db().get(`/__db/documents/${dangling}`).expect(200); // it referred to no property before: left alone
    await api("get", "/document/1004").expect(404);
  });

  it("answers the whole state at GET /__db/db, behind the admin guard like the rest", async () => {
    await api("post", "/property").send(address).expect(200);
    const { body } = await db().get("/__db/db").expect(200);
    expect(body).toEqual(JSON.parse(unchanged()));
    await db().get("/__db/db").set("Origin", "https://elsewhere.example").expect(403);
    await db().get("/__db/db").set("Host", "attacker.example").expect(403);
    const locked = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), adminToken: "s3cret" });
    await request(locked.app).get("/__db/db").expect(401);
    await request(locked.app).get("/__db/db").set("Authorization", "Bearer s3cret").expect(200);
    await db().post("/__db/db").send({}).expect(405);
  });
});

describe("the services see a raw write at once", () => {
  it("an agent written raw holds its email against an API create, and frees it when removed raw", async () => {
    const { body: agent } = await db().get("/__db/agents/1003").expect(200);
    const { id: _id, ...fields } = agent;
    const { body: raw } = await db()
      .post("/__db/agents")
      .send({ ...fields, email: "Raw.Agent@harbor.example" })
      .expect(201);
    const card = { agent_first_name: "A", agent_last_name: "B", email: "raw.agent@HARBOR.example" };
    await api("post", "/agent_card/").send(card).expect(409);
    await db().delete(`/__db/agents/${raw.id}`).expect(200);
    await api("post", "/agent_card/").send(card).expect(200);
  });

  it("a property written raw appears in list-by-user, and one moved raw leaves its former owner's list", async () => {
    const [added] = await addProperties(1);
    const listed = async (uid: number, credentials?: Record<string, string>) =>
      ((await api("get", `/properties/${uid}`, credentials).expect(200)).body as Array<{ nid: string }>).map(
        (item) => item.nid,
      );
    expect(await listed(1)).toEqual(["1001", String(added)]);
    await db()
      .put(`/__db/properties/${added}`)
      .send({ ...(await db().get(`/__db/properties/${added}`)).body, uid: 2 })
      .expect(200);
    expect(await listed(1)).toEqual(["1001"]);
    expect(await listed(2, OTHER)).toEqual(["1002", String(added)]);
    expect((await api("get", `/property/${added}`, OTHER).expect(200)).body.uid).toBe("2");
  });

  it("a document written raw as a floorplan is in its property's floorplans, and leaves on a raw change", async () => {
    const { body: document } = await db().get("/__db/documents/1004").expect(200);
    const { id: _id, ...fields } = document;
    const { body: raw } = await db()
      .post("/__db/documents")
      .send({ ...fields, title: "Attic" })
      .expect(201);
    expect(Object.keys((await api("get", "/property/1001").expect(200)).body.floorplans)).toEqual([
      "1004",
      String(raw.id),
    ]);
    await db().patch(`/__db/documents/${raw.id}`).send({ is_floorplan: false }).expect(200);
    expect(Object.keys((await api("get", "/property/1001").expect(200)).body.floorplans)).toEqual(["1004"]);
  });

  it("an external id written raw finds its property through endpoint 2", async () => {
    await db().patch("/__db/properties/1002").send({ external_id: "raw-ext" }).expect(200);
    expect((await api("get", "/external-property/raw-ext", OTHER).expect(200)).body.nid).toBe("1002");
    await api("get", "/external-property/crm-1002", OTHER).expect(404);
  });
});

describe("hostile input json-server's router would mishandle", () => {
  const noServerError = async (test: request.Test) => {
    const answer = await test;
    expect(answer.status, `${answer.status} ${answer.text.slice(0, 200)}`).toBeLessThan(500);
    expect(answer.text).not.toMatch(/\n\s+at |node_modules/);
    return answer;
  };

  it("answers odd paging, operators, prototype keys and unknown names with a 2xx or 4xx, changing none", async () => {
    const before = unchanged();
    const queries = [
      "_page=abc",
      "_page=-1&_limit=-5",
      "_page=1e400&_limit=99999999999999999999",
      "_limit=1e9",
      "_start=-5&_end=abc",
      "_page=0",
      "_sort=__proto__",
      "_sort=constructor&_order=sideways",
      "__proto__=1",
      "constructor_ne=x",
      "__proto___like=x",
      "constructor.name=Object",
      "q[a]=b",
      "_sort[a]=b",
      "q=%E0%A4%A",
      "title_like=%5C",
      "title_like=[",
      "id_gte=abc&id_lte=",
      "toString=1",
      "hasOwnProperty_like=x",
      "_embed=documents&_embed=documents",
      "virtual_tours.1101.__proto__=1",
      "_delay=abc",
      "_=1",
    ];
    for (const query of queries) await noServerError(db().get(`/__db/properties?${query}`));
    for (const path of [
      "/__db/__proto__",
      "/__db/constructor",
      "/__db/__proto__/1",
      "/__db/properties/__proto__",
      "/__db/properties/constructor",
      "/__db/properties/1001/__proto__",
      "/__db/hasOwnProperty/1/documents",
      "/__db/properties/1e3",
      "/__db/properties/%2e%2e",
    ]) {
      expect((await noServerError(db().get(path))).status).toBe(404);
    }
    for (const body of ['{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}']) {
      await noServerError(db().post("/__db/properties").set("content-type", "application/json").send(body));
      await noServerError(db().patch("/__db/properties/1001").set("content-type", "application/json").send(body));
      await noServerError(db().put("/__db/agents/1003").set("content-type", "application/json").send(body));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(unchanged()).toBe(before);
  });

  it("answers JSON, never JSONP: a web page's script tag cannot read the state", async () => {
    for (const path of [
      "/__db/accounts?callback=steal",
      "/__db/db?callback=steal",
      "/__db/accounts/1?callback=steal",
    ]) {
      const answer = await db().get(path).expect(200);
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(answer.text).not.toContain("steal");
    }
  });

  it("bounds the work a query asks for: parameters, sort fields, _embed comparisons, _delay", async () => {
    const many = Array.from({ length: MAX_QUERY_PARAMETERS + 1 }, (_, n) => `f${n}=1`).join("&");
    expect((await db().get(`/__db/properties?${many}`).expect(400)).body.detail).toContain(
      `at most ${MAX_QUERY_PARAMETERS}`,
    );
    await db()
      .get(`/__db/properties?_sort=${Array(9).fill("id").join(",")}`)
      .expect(400);
    await db().get("/__db/properties?_delay=60001").expect(400);
    await db().delete("/__db/agents/1003?_delay=1e9").expect(400);
    await db().get("/__db/agents/1003").expect(200);

    const state = tinyFixtures();
    const [property] = state.properties;
    const [document] = state.documents;
    const wide: Database = {
      ...state,
      properties: Array.from({ length: 2_000 }, (_, n) => ({ ...property!, id: 10_000 + n, external_id: null })),
      documents: Array.from({ length: Math.ceil(MAX_EMBED_COMPARISONS / 2_000) + 1 }, (_, n) => ({
        ...document!,
        id: 20_000 + n,
      })),
    };
    const big = createMockServer({ fixtures: wide, contract: sharedContract() });
    const refused = await request(big.app).get("/__db/properties?_embed=documents").expect(400);
    expect(refused.body.detail).toContain("_page and _limit");
    const { body } = await request(big.app).get("/__db/properties?_embed=documents&_page=1&_limit=2").expect(200);
    expect(body).toHaveLength(2);
  });

  it("refuses a body that is not a JSON object, and does not let a header turn a POST into a DELETE", async () => {
    const before = unchanged();
    for (const body of ["[1]", '"text"', "null", "3"]) {
      await db().post("/__db/agents").set("content-type", "application/json").send(body).expect(400);
    }
    await db().post("/__db/agents").expect(400); // no body at all
    await db()
      .post("/__db/agents/1003")
      .set("X-HTTP-Method-Override", "DELETE")
      .set("content-type", "application/json")
      .send("{}")
      .expect(405);
    await db().post("/__db/agents").set("X-HTTP-Method-Override", "DELETE").send({ name: "x" }).expect(400);
    expect(unchanged()).toBe(before);
  });
});
