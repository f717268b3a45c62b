import type { Needs, RunContext } from "../run-context.ts";
import { compareFields, compareSent, DOCUMENT_SAMENESS } from "./sent-value.ts";
import { API, record, show, type Json, type RunNames } from "./step-support.ts";
import type { PropertyState } from "./property-steps.ts";

/**
 * Endpoints 11 to 14 with a floorplan: create it with every field, retrieve it, see it on its property, update
 * every field (moving it to the second property), and delete it; it must appear on and leave its property.
 */
export async function documentSteps(ctx: RunContext, names: RunNames, properties: PropertyState): Promise<void> {
  const { nid: propertyNid, minimalNid } = properties;
  const floorplan = {
    title: `Contract floorplan ${names.tag}`,
    property_reference: Number(propertyNid),
    file_url: `https://files.contract-run.example/${names.tag}/floorplan.pdf`,
    visible: true,
    category: "floorplan",
    is_floorplan: true,
    Show_on_unbranded: true,
  };
  const created = record(
    await ctx.call("attach a floorplan to the property", "createDocument", `${API}/document/`, {
      body: floorplan,
      expect: "success",
    }),
  );
  const documentNid =
    typeof created?.nid === "number" || typeof created?.nid === "string" ? String(created.nid) : undefined;
  if (documentNid === undefined) {
    ctx.skip("floorplan_on_property", "see the floorplan on its property", "the floorplan could not be created");
    return;
  }
  let step = "retrieve the floorplan";
  const fetched = await ctx.call(step, "retrieveDocument", `${API}/document/${documentNid}`, { expect: "success" });
  const document = record(fetched);
  ctx.check("ensure_resource_availability", {
    step,
    passed: document?.nid === documentNid,
    exchange: fetched,
    operation: "retrieveDocument",
    section: "4.3",
    message: `the created document ${documentNid} could not be retrieved`,
    expected: `nid ${show(documentNid)}`,
    actual: show(document?.nid),
  });
  if (document) {
    const { facts, readings } = compareFields(document, floorplan, DOCUMENT_SAMENESS);
    ctx.check("create_round_trip", {
      step,
      passed: facts.length === 0,
      exchange: fetched,
      operation: "retrieveDocument",
      section: "2.3",
      message: facts.join("; "),
    });
    ctx.check("create_round_trip", {
      step: `${step} (our reading of the text sent)`,
      passed: readings.length === 0,
      exchange: fetched,
      operation: "retrieveDocument",
      tier: "assumption",
      message: readings.join("; "),
    });
  }
  await seeFloorplan(
    ctx,
    "see the floorplan on its property",
    propertyNid,
    documentNid,
    { title: floorplan.title, floorplan_url: floorplan.file_url },
    "fact",
  );

  // Every field changed at once, the floorplan moved to the second property.
  const target = minimalNid ?? propertyNid;
  const update = {
    title: `Contract floorplan ${names.tag} (updated)`,
    property_reference: Number(target),
    file_url: `https://files.contract-run.example/${names.tag}/floorplan-2.pdf`,
    visible: false,
    category: "plan",
    is_floorplan: true,
    Show_on_unbranded: false,
  };
  step = "update every field of the floorplan";
  const updateAnswer = await ctx.call(step, "updateDocument", `${API}/document/${documentNid}`, {
    body: update,
    expect: "success",
  });
  const updated = record(updateAnswer);
  if (updated)
    ctx.check("edit_visible", {
      step,
      passed: updated.nid === documentNid,
      operation: "updateDocument",
      section: "4.3",
      message: `the update answered nid ${show(updated.nid)}`,
      expected: show(documentNid),
      actual: show(updated.nid),
    });
  step = "retrieve the updated floorplan";
  const after = await ctx.call(step, "retrieveDocument", `${API}/document/${documentNid}`, { expect: "success" });
  const changed = record(after);
  if (changed) {
    const { facts, readings } = compareFields(changed, update, DOCUMENT_SAMENESS);
    ctx.check("edit_visible", {
      step,
      passed: facts.length === 0,
      exchange: after,
      needs: [updateAnswer],
      operation: "retrieveDocument",
      section: "4.3",
      message: facts.join("; "),
    });
    ctx.check("edit_visible", {
      step: `${step} (our reading of the text sent)`,
      passed: readings.length === 0,
      exchange: after,
      needs: [updateAnswer],
      operation: "retrieveDocument",
      tier: "assumption",
      message: readings.join("; "),
    });
  }
  if (target !== propertyNid) {
    await seeFloorplan(
      ctx,
      "see the moved floorplan on its new property",
      target,
      documentNid,
      { title: update.title, floorplan_url: update.file_url },
      "fact",
      [updateAnswer],
    );
    await seeFloorplan(
      ctx,
      "see the moved floorplan gone from its old property",
      propertyNid,
      documentNid,
      undefined,
      "fact",
      [updateAnswer],
    );
  }

  // A property's floorplans are its documents that are floorplans (sections 2.1, 2.3): one that stops being a
  // floorplan leaves them.
  const demoted = await ctx.call(
    "make the document no longer a floorplan",
    "updateDocument",
    `${API}/document/${documentNid}`,
    { body: { is_floorplan: false }, expect: "success" },
  );
  await seeFloorplan(ctx, "see the former floorplan gone from its property", target, documentNid, undefined, "fact", [
    updateAnswer,
    demoted,
  ]);
  const restored = await ctx.call(
    "make the document a floorplan again",
    "updateDocument",
    `${API}/document/${documentNid}`,
    { body: { is_floorplan: true }, expect: "success" },
  );

  await notAFloorplan(ctx, names, target);
  const deleted = await ctx.call("delete the floorplan", "deleteDocument", `${API}/document/${documentNid}`, {
    expect: "success",
  });
  await ctx.call("retrieve the deleted floorplan", "retrieveDocument", `${API}/document/${documentNid}`, {
    expect: { refusal: "use_after_free", section: "4.3", rule: "the document was deleted" },
    needs: [deleted],
  });
  await seeFloorplan(ctx, "see the deleted floorplan gone from its property", target, documentNid, undefined, "fact", [
    updateAnswer,
    restored,
    deleted,
  ]);
}

/** Sections 2.1 and 2.3: a document that is not a floorplan is not among its property's floorplans. */
async function notAFloorplan(ctx: RunContext, names: RunNames, propertyNid: string): Promise<void> {
  const body = {
    title: `Contract brochure ${names.tag}`,
    property_reference: Number(propertyNid),
    file_url: `https://files.contract-run.example/${names.tag}/brochure.pdf`,
    category: "brochure",
    is_floorplan: false,
  };
  const nid = record(
    await ctx.call("attach a document that is not a floorplan", "createDocument", `${API}/document/`, {
      body,
      expect: "success",
    }),
  )?.nid;
  if (typeof nid !== "number" && typeof nid !== "string") return;
  await seeFloorplan(
    ctx,
    "see the document that is not a floorplan kept out of the floorplans",
    propertyNid,
    String(nid),
    undefined,
    "fact",
    [],
  );
  await ctx.call("delete the document that is not a floorplan", "deleteDocument", `${API}/document/${String(nid)}`, {
    expect: "success",
  });
}

/** Retrieves a property and checks its floorplans hold the document (with these fields) or, without fields, do not. */
async function seeFloorplan(
  ctx: RunContext,
  step: string,
  propertyNid: string,
  documentNid: string,
  fields: { title: string; floorplan_url: string } | undefined,
  tier: "fact" | "assumption",
  needs: Needs = [],
): Promise<void> {
  const answer = await ctx.call(step, "retrieveProperty", `${API}/property/${propertyNid}`, {
    expect: "success",
    needs,
  });
  const floorplans = record(answer)?.floorplans;
  if (floorplans === null || typeof floorplans !== "object" || Array.isArray(floorplans)) return;
  const entry = (floorplans as Record<string, Json>)[documentNid];
  if (fields) {
    const passed =
      entry !== undefined &&
      String(entry.nid) === documentNid &&
      entry.title === fields.title &&
      compareSent("url", fields.floorplan_url, entry.floorplan_url) !== "different";
    ctx.check("floorplan_on_property", {
      step,
      passed,
      exchange: answer,
      operation: "retrieveProperty",
      tier,
      section: "2.1",
      message: `floorplans[${documentNid}] of property ${propertyNid} is ${show(entry)}`,
      expected: JSON.stringify({ nid: documentNid, ...fields }),
    });
  } else {
    ctx.check("floorplan_on_property", {
      step,
      passed: entry === undefined,
      exchange: answer,
      operation: "retrieveProperty",
      tier,
      section: "2.1",
      message: `floorplans of property ${propertyNid} still hold document ${documentNid}: ${show(entry)}`,
    });
  }
}
