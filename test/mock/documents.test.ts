/** Documents and floorplans (section 4.3, endpoints 11 to 14). */
import { describe, expect, it } from "vitest";
import { createHarness } from "../support/mock-harness.ts";
import { OTHER } from "../support/tiny-fixtures.ts";

let clock = Date.UTC(2026, 0, 1);
const { api } = createHarness({ now: () => clock });
const floorplan = {
  title: "Upper floor",
  property_reference: 1001,
  file_url: "https://files.property-listing.example/1001-upper.pdf",
  is_floorplan: true,
};

describe("create, retrieve, update, delete", () => {
  it("answers the new nid as an integer, and the document as section 2.3 gives it", async () => {
    clock = Date.UTC(2026, 0, 1, 12, 0, 0);
    const created = await api("post", "/document/").send(floorplan).expect(200);
    expect(created.body).toEqual({ nid: expect.any(Number) });
    const { body } = await api("get", `/document/${created.body.nid}`).expect(200);
    expect(body).toEqual({
      nid: String(created.body.nid),
      created: 1767268800,
      changed: 1767268800,
      title: "Upper floor",
      property_reference: 1001,
      file_url: floorplan.file_url,
      visible: true,
      category: "floorplan",
      is_floorplan: true,
      Show_on_unbranded: false,
    });
  });

  it("answers the nid as a string on update, changes only the given fields and moves `changed`", async () => {
    clock = Date.UTC(2026, 0, 1);
    const { body: created } = await api("post", "/document/")
      .send({ ...floorplan, category: "plans" })
      .expect(200);
    clock += 3_600_000;
    await api("put", `/document/${created.nid}`)
      .send({ visible: false })
      .expect(200, { nid: String(created.nid) });
    const { body } = await api("get", `/document/${created.nid}`).expect(200);
    expect(body).toMatchObject({
      visible: false,
      category: "plans",
      title: "Upper floor",
      changed: body.created + 3600,
    });
  });

  it("defaults the category of a plain document to 'document'", async () => {
    const { body: created } = await api("post", "/document/")
      .send({ title: "Disclosure", property_reference: 1001, file_url: "https://files.property-listing.example/d.pdf" })
      .expect(200);
    expect((await api("get", `/document/${created.nid}`).expect(200)).body).toMatchObject({
      category: "document",
      is_floorplan: false,
      visible: true,
    });
  });

  it("deletes with [true], after which the document is gone", async () => {
    await api("delete", "/document/1004").expect(200, [true]);
    await api("get", "/document/1004").expect(404);
    await api("delete", "/document/1004").expect(404);
    await api("put", "/document/1004").send({ visible: true }).expect(404);
  });
});

describe("floorplans on their property", () => {
  const floorplansOf = async (nid: number) => (await api("get", `/property/${nid}`).expect(200)).body.floorplans;

  it("shows a new floorplan on its property, hides it when it stops being one, and drops it when deleted", async () => {
    const { body: created } = await api("post", "/document/").send(floorplan).expect(200);
    const key = String(created.nid);
    expect(await floorplansOf(1001)).toMatchObject({
      "1004": expect.anything(),
      [key]: { nid: key, title: "Upper floor", floorplan_url: floorplan.file_url },
    });
    await api("put", `/document/${key}`).send({ title: "Attic" }).expect(200);
    expect((await floorplansOf(1001))[key].title).toBe("Attic");
    await api("put", `/document/${key}`).send({ is_floorplan: false }).expect(200);
    expect(await floorplansOf(1001)).not.toHaveProperty(key);
    await api("put", `/document/${key}`).send({ is_floorplan: true }).expect(200);
    expect(await floorplansOf(1001)).toHaveProperty(key);
    await api("delete", `/document/${key}`).expect(200);
    expect(Object.keys(await floorplansOf(1001))).toEqual(["1004"]);
  });

  it("leaves plain documents out of the floorplans", async () => {
    await api("post", "/document/")
      .send({ ...floorplan, is_floorplan: false })
      .expect(200);
    expect(Object.keys(await floorplansOf(1001))).toEqual(["1004"]);
  });

  it("moves a floorplan to another property of the account", async () => {
    const { body: property } = await api("post", "/property")
      .send({ street: "1 Main St", city: "Austin", state: "TX", zip: "78701" })
      .expect(200);
    await api("put", "/document/1004")
      .send({ property_reference: Number(property.nid) })
      .expect(200);
    expect(await floorplansOf(1001)).toEqual({});
    expect(Object.keys(await floorplansOf(Number(property.nid)))).toEqual(["1004"]);
  });
});

describe("ownership", () => {
  it("refuses a document for another account's property, or for no property, with 422", async () => {
    for (const reference of [1002, 999999]) {
      const { body } = await api("post", "/document/")
        .send({ ...floorplan, property_reference: reference })
        .expect(422);
      expect(body).toMatchObject({
        title: "Unknown Property Reference",
        errors: [{ in: "body", pointer: "/property_reference", detail: "refers to no property of this account" }],
      });
    }
    await api("put", "/document/1004").send({ property_reference: 1002 }).expect(422);
    expect((await api("get", "/document/1004").expect(200)).body.property_reference).toBe(1001);
  });

  it("does not show, change or delete another account's document", async () => {
    await api("get", "/document/1004", OTHER).expect(404);
    await api("put", "/document/1004", OTHER).send({ visible: false }).expect(404);
    await api("delete", "/document/1004", OTHER).expect(404);
    expect((await api("get", "/document/1004").expect(200)).body.visible).toBe(true);
  });

  it("refuses a body of the wrong types, listing each field", async () => {
    const { body } = await api("post", "/document/")
      .send({
        title: "",
        property_reference: "1001",
        file_url: "nope",
        visible: "yes",
        Show_on_unbranded: 1,
        show_on_unbranded: false,
      })
      .expect(400);
    expect(body.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual([
      "/Show_on_unbranded",
      "/file_url",
      "/property_reference",
      "/show_on_unbranded",
      "/title",
      "/visible",
    ]);
  });
});
