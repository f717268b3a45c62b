/** Properties (section 4.1, endpoints 1 to 5) through the mock's HTTP surface. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createHarness } from "../support/mock-harness.ts";
import { OTHER } from "../support/tiny-fixtures.ts";

const { mock, api } = createHarness({ baseUrl: "https://mock.example:8443" });
const address = { street: "88 Colin P Kelly Jr St", city: "San Francisco", state: "CA", zip: "94107" };

describe("create then retrieve", () => {
  it("answers the nid and an auto-login uri under the base url, and the property can be retrieved", async () => {
    const created = await api("post", "/property").send(address).expect(200);
    expect(created.body).toEqual({
      nid: expect.stringMatching(/^[0-9]+$/),
      uri: expect.stringMatching(/^https:\/\/mock\.example:8443\/autologin\/[0-9]+-[0-9]+-[0-9a-f]{32}$/),
    });
    const retrieved = await api("get", `/property/${created.body.nid}`).expect(200);
    expect(retrieved.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(retrieved.body).toMatchObject({ nid: created.body.nid, uid: "1", ...address, premise: "", country: "US" });
  });

  it("gives numbers back as numeric strings, the property type compact and the garage as a count", async () => {
    const body = {
      ...address,
      "square feet": 2150,
      bedrooms: 3,
      baths: 2,
      list_price: 1250000,
      garage: "Attached",
      stories: 2,
      lot_size: "4,356",
      parking_spaces: 2,
      description: "<p>Sunny.</p>",
      property_type: "Single Family",
      year_built: 1998,
      template: "icon",
    };
    const { body: created } = await api("post", "/property").send(body).expect(200);
    const { body: property } = await api("get", `/property/${created.nid}`).expect(200);
    expect(property).toMatchObject({
      square_feet: "2150",
      bedrooms: "3",
      baths: "2",
      list_price: "1250000",
      garage: "1",
      stories: "2",
      lot_size: "4,356",
      parking_spaces: "2",
      description: "<p>Sunny.</p>",
      property_type: "SingleFamily",
      year_built: "1998",
      template: "icon",
    });
    expect(property).not.toHaveProperty(["square feet"]);
  });

  it("maps every garage kind to a count and keeps huge integers exact", async () => {
    const counts: Record<string, string> = {};
    for (const garage of ["Attached", "Detached", "None"]) {
      const { body } = await api("post", "/property")
        .send({ ...address, garage, list_price: 1e21 })
        .expect(200);
      const { body: property } = await api("get", `/property/${body.nid}`).expect(200);
      counts[garage] = property.garage;
      expect(property.list_price).toBe("1000000000000000000000");
    }
    expect(counts).toEqual({ Attached: "1", Detached: "1", None: "0" });
  });

  it("answers null for what the body left out and sensible defaults for the rest", async () => {
    const { body } = await api("post", "/property").send(address).expect(200);
    const { body: property } = await api("get", `/property/${body.nid}`).expect(200);
    for (const field of [
      "square_feet",
      "bedrooms",
      "baths",
      "list_price",
      "garage",
      "stories",
      "lot_size",
      "parking_spaces",
      "description",
      "property_type",
      "year_built",
      "external_id",
      "open_houses",
    ]) {
      expect(property[field], field).toBeNull();
    }
    expect(property).toMatchObject({
      title: address.street,
      template: "rubik_v2",
      subdomain: `88-colin-p-kelly-jr-st-${body.nid}`,
      website_url: `https://88-colin-p-kelly-jr-st-${body.nid}.sites.property-listing.example`,
      virtual_tours: [],
      property_videos: {},
      floorplans: {},
    });
  });

  it("returns the seeded tours, videos and floorplans in their documented shapes", async () => {
    const { body } = await api("get", "/property/1001").expect(200);
    expect(body.virtual_tours).toEqual({
      "1101": { nid: 1101, title: "3D tour", vtour_url: "https://tours.property-listing.example/1101" },
    });
    expect(body.property_videos).toEqual({
      "1102": { nid: 1102, title: "Drive-by", video_url: "https://videos.property-listing.example/1102.mp4" },
    });
    expect(body.floorplans).toEqual({
      "1004": {
        nid: "1004",
        title: "Ground floor",
        floorplan_url: "https://files.property-listing.example/1001-ground.pdf",
      },
    });
  });

  it("issues a different auto-login token each time, and the uri opens a page for the property", async () => {
    const first = await api("post", "/property").send(address).expect(200);
    const second = await api("put", `/property/${first.body.nid}`).send({ premise: "Unit 1" }).expect(200);
    expect(second.body.uri).not.toBe(first.body.uri);
    const page = await (await import("supertest")).default(mock.app).get(new URL(second.body.uri).pathname).expect(200);
    expect(page.text).toContain(`property ${first.body.nid}`);
  });
});

describe("edit", () => {
  it("changes only the fields it is given and answers nid and uri", async () => {
    const { body: created } = await api("post", "/property")
      .send({ ...address, bedrooms: 2 })
      .expect(200);
    const { body: before } = await api("get", `/property/${created.nid}`).expect(200);
    const edited = await api("put", `/property/${created.nid}`)
      .send({ street: "1 Infinite Loop", premise: "Suite 4", bedrooms: "4" })
      .expect(200);
    expect(edited.body).toEqual({
      nid: created.nid,
      uri: expect.stringMatching(/^https:\/\/mock\.example:8443\/autologin\//),
    });
    const { body: after } = await api("get", `/property/${created.nid}`).expect(200);
    expect(after).toEqual({ ...before, street: "1 Infinite Loop", premise: "Suite 4", bedrooms: "4" });
  });

  it("takes a garage kind or a count, a property type with or without spaces, and moves the site with it", async () => {
    const { body: created } = await api("post", "/property").send(address).expect(200);
    await api("put", `/property/${created.nid}`)
      .send({ garage: "None", property_type: "Town House", subdomain: "colin-kelly" })
      .expect(200);
    let { body } = await api("get", `/property/${created.nid}`).expect(200);
    expect(body).toMatchObject({
      garage: "0",
      property_type: "TownHouse",
      subdomain: "colin-kelly",
      website_url: "https://colin-kelly.sites.property-listing.example",
    });
    await api("put", `/property/${created.nid}`).send({ garage: "2", property_type: "MultiFamily" }).expect(200);
    ({ body } = await api("get", `/property/${created.nid}`).expect(200));
    expect(body).toMatchObject({ garage: "2", property_type: "MultiFamily" });
  });

  it("refuses an empty edit, a non-string value and a field that cannot be edited, changing nothing", async () => {
    const { body: before } = await api("get", "/property/1001").expect(200);
    const empty = await api("put", "/property/1001").send({}).expect(400);
    expect(empty.body.errors).toEqual([{ in: "body", pointer: "", detail: "must name at least 1 field" }]);
    const wrong = await api("put", "/property/1001").send({ bedrooms: 4, nid: "5", city: "Dallas" }).expect(400);
    expect(wrong.body.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual(["/bedrooms", "/nid"]);
    expect((await api("get", "/property/1001").expect(200)).body).toEqual(before);
  });

  it("answers 404 for an unknown nid and for another account's property, which stays unchanged", async () => {
    await api("put", "/property/999999").send({ city: "Dallas" }).expect(404);
    const foreign = await api("put", "/property/1002").send({ city: "Dallas" }).expect(404);
    expect(foreign.body).toMatchObject({
      title: "Not Found",
      status: 404,
      detail: "No property with nid 1002 for this account.",
    });
    expect((await api("get", "/property/1002", OTHER).expect(200)).body.city).toBe("Austin");
  });
});

describe("external id", () => {
  it("is set by edit, found through endpoint 2, and removed with an empty string", async () => {
    const { body: created } = await api("post", "/property").send(address).expect(200);
    await api("get", "/external-property/crm-777").expect(404);
    await api("put", `/property/${created.nid}`).send({ external_id: "crm-777" }).expect(200);
    const found = await api("get", "/external-property/crm-777").expect(200);
    expect(found.body).toEqual((await api("get", `/property/${created.nid}`).expect(200)).body);
    await api("put", `/property/${created.nid}`).send({ external_id: "" }).expect(200);
    await api("get", "/external-property/crm-777").expect(404);
    expect((await api("get", `/property/${created.nid}`).expect(200)).body.external_id).toBeNull();
  });

  it("can be given on create, and decodes reserved characters in the path", async () => {
    const { body } = await api("post", "/property")
      .send({ ...address, external_id: "crm/2024 #7" })
      .expect(200);
    const found = await api("get", `/external-property/${encodeURIComponent("crm/2024 #7")}`).expect(200);
    expect(found.body.nid).toBe(body.nid);
  });

  it("belongs to one property of the account: a second one is refused with 409", async () => {
    const taken = await api("post", "/property")
      .send({ ...address, external_id: "crm-1001" })
      .expect(409);
    expect(taken.body).toMatchObject({ title: "External Id Already In Use", status: 409 });
    const { body: created } = await api("post", "/property").send(address).expect(200);
    await api("put", `/property/${created.nid}`).send({ external_id: "crm-1001" }).expect(409);
    // setting its own id again is fine
    await api("put", "/property/1001").send({ external_id: "crm-1001" }).expect(200);
  });

  it("is scoped to the account: another account's external id is not found, and can be reused", async () => {
    await api("get", "/external-property/crm-1002").expect(404);
    await api("post", "/property")
      .send({ ...address, external_id: "crm-1002" })
      .expect(200);
  });
});

describe("list by user", () => {
  it("lists the user's properties as {nid, published, title, external_id}, including new ones", async () => {
    const { body: created } = await api("post", "/property").send(address).expect(200);
    const { body } = await api("get", "/properties/1").expect(200);
    expect(body).toEqual([
      { nid: "1001", published: "1", title: "Craftsman bungalow", external_id: "crm-1001" },
      { nid: created.nid, published: "1", title: address.street, external_id: null },
    ]);
  });

  // Each item's encoding is kept between answers: every way a property can change must show in the next list.
  it("shows every change made after a list was answered: edit, raw write, raw removal, reset", async () => {
    const list = async () =>
      (await api("get", "/properties/1").expect(200)).body as Array<{
        nid: string;
        title: string;
        external_id: string | null;
        published: string;
      }>;
    const seeded = await list();
    await api("put", "/property/1001").send({ title: "Edited title", external_id: "" }).expect(200);
    expect((await list())[0]).toEqual({ nid: "1001", published: "1", title: "Edited title", external_id: null });

    await request(mock.app).patch("/__db/properties/1001").send({ title: "Raw title", published: "0" }).expect(200);
    expect((await list())[0]).toEqual({ nid: "1001", published: "0", title: "Raw title", external_id: null });

    const whole = (await request(mock.app).get("/__db/properties/1001").expect(200)).body;
    await request(mock.app)
      .put("/__db/properties/1001")
      .send({ ...whole, title: "Raw put" })
      .expect(200);
    expect((await list())[0]!.title).toBe("Raw put");

    await request(mock.app).delete("/__db/properties/1001").expect(200);
    expect((await list()).map((item) => item.nid)).not.toContain("1001");

    await request(mock.app).post("/__admin/reset").expect(200);
    expect(await list()).toEqual(seeded);
  });

  it("shows a property a raw write moved to another user in both users' next lists", async () => {
    const nids = async (credentials?: Record<string, string>) =>
      (
        (await api("get", `/properties/${credentials ? 2 : 1}`, credentials).expect(200)).body as Array<{ nid: string }>
      ).map((item) => item.nid);
    expect(await nids()).toEqual(["1001"]);
    expect(await nids(OTHER)).toEqual(["1002"]);
    await request(mock.app).patch("/__db/properties/1002").send({ uid: 1 }).expect(200);
    expect(await nids()).toEqual(["1001", "1002"]);
    expect(await nids(OTHER)).toEqual([]);
  });

  it("answers 404 for another user's list", async () => {
    await api("get", "/properties/2").expect(404);
    expect((await api("get", "/properties/2", OTHER).expect(200)).body).toHaveLength(1);
  });
});

describe("path parameters and headers", () => {
  it("refuses a nid that is not an integer, naming the parameter", async () => {
    const { body } = await api("get", "/property/12abc").expect(400);
    expect(body.errors).toEqual([{ in: "path", pointer: "/nid", detail: 'must be integer, got string "12abc"' }]);
  });

  it("refuses a content-type other than the application/json the property and template endpoints require", async () => {
    const request = (await import("supertest")).default;
    const { body } = await request(mock.app)
      .get("/api/v1/object/property/1001")
      .set({ "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "text/plain" })
      .expect(400);
    expect(body.errors).toEqual([
      { in: "header", pointer: "/content-type", detail: expect.stringContaining("application/json") },
    ]);
  });
});
