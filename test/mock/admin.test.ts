/** The routes beside the API: health, raw records under /__db, reset, the spec, CORS. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadSpec } from "../../src/spec/load-spec.ts";
import { createHarness } from "../support/mock-harness.ts";
import { DEMO } from "../support/tiny-fixtures.ts";

const { mock, api } = createHarness();
const address = { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" };

describe("health and index", () => {
  it("answers /healthz with the record counts", async () => {
    const { body } = await request(mock.app).get("/healthz").expect(200);
    expect(body).toEqual({ status: "ok", counts: { accounts: 2, properties: 2, agents: 1, documents: 1 } });
  });

  it("serves the spec it follows as written, as YAML and JSON", async () => {
    const yaml = await request(mock.app).get("/openapi.yaml").expect(200);
    expect(yaml.headers["content-type"]).toBe("application/yaml; charset=utf-8");
    expect(parse(yaml.text)).toEqual(loadSpec());
    const json = await request(mock.app).get("/openapi.json").expect(200);
    expect(json.body).toEqual(loadSpec()); // not the closed copy the mock checks its answers with
  });
});

describe("raw records under /__db (json-server)", () => {
  it("shows what the API wrote, in the stored form", async () => {
    const { body: created } = await api("post", "/property").send(address).expect(200);
    const { body } = await request(mock.app).get(`/__db/properties/${created.nid}`).expect(200);
    expect(body).toMatchObject({ id: Number(created.nid), uid: 1, street: "1 Main St", published: "1" });
    const filtered = await request(mock.app).get("/__db/agents?uid=1").expect(200);
    expect(filtered.body.map((agent: { id: number }) => agent.id)).toEqual([1003]);
  });

  it("no longer holds what the API deleted", async () => {
    await api("delete", "/agent_card/1003").expect(200);
    await api("delete", "/document/1004").expect(200);
    await request(mock.app).get("/__db/agents/1003").expect(404);
    await request(mock.app).get("/__db/documents/1004").expect(404);
    expect(mock.store.state.agents).toEqual([]);
  });

  it("lets a test prepare records the API then serves, with nids from the shared sequence", async () => {
    const { body: raw } = await request(mock.app)
      .post("/__db/documents")
      .send({
        uid: 1,
        created: 1,
        changed: 1,
        title: "Raw plan",
        property_reference: 1001,
        file_url: "https://files.property-listing.example/raw.pdf",
        visible: true,
        category: "floorplan",
        is_floorplan: true,
        Show_on_unbranded: false,
      })
      .expect(201);
    expect(raw.id).toBeGreaterThan(1004);
    const { body: property } = await api("get", "/property/1001").expect(200);
    expect(property.floorplans[String(raw.id)]).toEqual({
      nid: String(raw.id),
      title: "Raw plan",
      floorplan_url: "https://files.property-listing.example/raw.pdf",
    });
    const { body: next } = await api("post", "/property").send(address).expect(200);
    expect(Number(next.nid)).toBeGreaterThan(raw.id);
  });

  it("reindexes after a raw change: an email changed raw is the one that is taken", async () => {
    await request(mock.app).patch("/__db/agents/1003").send({ email: "raw@harbor.example" }).expect(200);
    const agent = { agent_first_name: "A", agent_last_name: "B" };
    await api("post", "/agent_card/")
      .send({ ...agent, email: "raw@harbor.example" })
      .expect(409);
    await api("post", "/agent_card/")
      .send({ ...agent, email: "dana@harbor.example" })
      .expect(200);
  });

  it("adds an account with a fresh uid when none is given", async () => {
    const { body } = await request(mock.app)
      .post("/__db/accounts")
      .send({ apiKey: "raw-key", token: "raw-token", agentSeats: 0, name: "Raw" })
      .expect(201);
    expect(body.id).toBe(3);
    const { body: problem } = await api("post", "/agent_card/", { "API-KEY": "raw-key", TOKEN: "raw-token" })
      .send({ agent_first_name: "A", agent_last_name: "B", email: "a@b.example" })
      .expect(402);
    expect(problem.detail).toContain("All 0 agent seats");
  });

  it("answers malformed JSON on a raw write with a 400 problem", async () => {
    const { body } = await request(mock.app)
      .post("/__db/properties")
      .set("content-type", "application/json")
      .send("{oops")
      .expect(400);
    expect(body.title).toBe("Malformed JSON");
  });
});

describe("reset", () => {
  it("restores the seeded state, dropping records and accounts opened since", async () => {
    const before = JSON.stringify(mock.store.state);
    await api("post", "/property").send(address).expect(200);
    await api("delete", "/agent_card/1003").expect(200);
    await api("get", "/agent_cards", { "API-KEY": "new-key", TOKEN: "t" }).expect(200);
    const { body } = await request(mock.app).post("/__admin/reset").expect(200);
    expect(body).toEqual({ status: "reset", counts: { accounts: 2, properties: 2, agents: 1, documents: 1 } });
    expect(JSON.stringify(mock.store.state)).toBe(before);
    await api("post", "/agent_card/1003").expect(200);
    await api("get", "/agent_cards", { "API-KEY": "new-key", TOKEN: "other" }).expect(200); // the key is new again
  });

  it("starts the nid, uid and auto-login sequences again: after a reset, the same requests get the same", async () => {
    const run = async () => {
      const property = (await api("post", "/property").send(address).expect(200)).body as {
        nid: string;
        uri: string;
      };
      const document = (
        await api("post", "/document/")
          .send({
            title: "Plan",
            property_reference: Number(property.nid),
            file_url: "https://f.example/p.pdf",
            visible: true,
            category: "floorplan",
            is_floorplan: true,
            Show_on_unbranded: false,
          })
          .expect(200)
      ).body as { nid: number };
      const account = (await request(mock.app).get("/__db/accounts?apiKey=fresh-key").expect(200)).body as unknown[];
      await api("get", "/agent_cards", { "API-KEY": "fresh-key", TOKEN: "t" }).expect(200);
      const opened = (await request(mock.app).get("/__db/accounts?apiKey=fresh-key").expect(200)).body as Array<{
        id: number;
      }>;
      // The uri's address is the one each request used (supertest listens on a new port for each): only its path, the
      // token, must repeat.
      return {
        property: { ...property, uri: new URL(property.uri).pathname },
        document,
        before: account.length,
        uid: opened[0]!.id,
      };
    };
    const first = await run();
    await request(mock.app).post("/__admin/reset").expect(200);
    expect(await run()).toEqual(first);
  });
});

describe("a new account's uid", () => {
  const fresh = { "API-KEY": "uid-key", TOKEN: "uid-token" };
  it("is the uid of the properties it creates, and listing by it finds them (docs/mock.md: Accounts)", async () => {
    const { nid } = (await api("post", "/property", fresh).send(address).expect(200)).body as { nid: string };
    const { uid } = (await api("get", `/property/${nid}`, fresh).expect(200)).body as { uid: string };
    expect(uid).not.toBe("1");
    const listed = (await api("get", `/properties/${uid}`, fresh).expect(200)).body as Array<{ nid: string }>;
    expect(listed.map((item) => item.nid)).toEqual([nid]);
  });

  it("is shown by GET /__db/accounts?apiKey=<key> once the key has been used", async () => {
    expect((await request(mock.app).get("/__db/accounts?apiKey=uid-key").expect(200)).body).toEqual([]);
    await api("get", "/agent_cards", fresh).expect(200);
    const [account] = (await request(mock.app).get("/__db/accounts?apiKey=uid-key").expect(200)).body as Array<{
      id: number;
    }>;
    await api("post", "/property", fresh).send(address).expect(200);
    expect((await api("get", `/properties/${account!.id}`, fresh).expect(200)).body).toHaveLength(1);
  });
});

describe("CORS", () => {
  it("answers a browser's preflight, allowing the API-KEY and TOKEN headers", async () => {
    const response = await request(mock.app)
      .options("/api/v1/object/property")
      .set({
        Origin: "http://localhost:5173",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "api-key,token,content-type",
      })
      .expect(204);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-allow-methods"]).toBe("GET, POST, PUT, DELETE, OPTIONS");
    expect(response.headers["access-control-allow-headers"]).toBe("api-key,token,content-type");
  });

  it("marks answers, errors included, as readable from any origin", async () => {
    const ok = await request(mock.app)
      .get("/api/v1/object/template_base")
      .set({ ...DEMO, "content-type": "application/json", Origin: "http://localhost:5173" })
      .expect(200);
    expect(ok.headers["access-control-allow-origin"]).toBe("*");
    const denied = await request(mock.app)
      .get("/api/v1/object/template_base")
      .set({ Origin: "http://localhost:5173" })
      .expect(401);
    expect(denied.headers["access-control-allow-origin"]).toBe("*");
  });
});

describe("auto-login pages", () => {
  it("signs in to the property the token was issued for, and refuses other tokens with a 404 problem", async () => {
    const { body: created } = await api("post", "/property").send(address).expect(200);
    const path = new URL(created.uri).pathname;
    const page = await request(mock.app).get(path).expect(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.text).toContain(`Signed in to property ${created.nid} (`);
    for (const other of ["/autologin/0123456789abcdef0123456789abcdef", "/autologin/%E0%A4%A", `${path}/more`]) {
      const { body } = await request(mock.app).get(other).expect(404);
      expect(body.type, other).toBe("https://property-listing.example/problems/not-found");
    }
  });
});

describe("paths outside the routes", () => {
  it("answers a 404 problem naming the request, under the admin prefixes too", async () => {
    for (const [method, path] of [
      ["get", "/nowhere"],
      ["get", "/__admin/reset"],
      ["post", "/__admin/other"],
      ["get", "/__dbx"],
      ["post", "/healthz"],
    ] as const) {
      const { body, headers } = await request(mock.app)[method](path).expect(404);
      expect(headers["content-type"]).toBe("application/problem+json; charset=utf-8");
      expect(body, `${method} ${path}`).toMatchObject({
        status: 404,
        instance: path,
        detail: `Nothing at ${method.toUpperCase()} ${path}. The API lives under /api/v1/object/.`,
      });
    }
  });

  it("answers HEAD on the pages like GET, without a body", async () => {
    const head = await request(mock.app).head("/healthz").expect(200);
    expect(head.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(head.text ?? "").toBe("");
  });
});
