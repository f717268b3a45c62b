import type { RunContext } from "../run-context.ts";
import { API } from "./step-support.ts";
import { PROPERTY } from "./property-steps.ts";

/** Section 4.1: the property types of the create body, case sensitive. */
const PROPERTY_TYPES = ["Single Family", "Duplex", "Triplex", "Quad-Plex", "Condo", "Co-op", "Mobile Home", "Multi Family", "Timeshare", "Town House", "Miscellaneous", "Residential Land"];

/** A create body with one documented constraint of section 4.1 broken, and the constraint. */
interface NearMiss {
  label: string;
  body: Record<string, unknown>;
  rule: string;
}

const without = (field: string) => Object.fromEntries(Object.entries(PROPERTY).filter(([name]) => name !== field));

/**
 * Near misses of endpoint 3 (section 4.1), each of which must be refused: every required field left out in
 * turn, a state of 1 and of 3 characters, and for each enum its case variants, compact variants and values of
 * a neighbouring list (templates of the catalogue that create does not offer, 2.4 against 4.1).
 */
export function nearMisses(): NearMiss[] {
  const misses: NearMiss[] = [];
  for (const field of ["street", "city", "state", "zip"]) misses.push({ label: `no ${field}`, body: without(field), rule: `${field} is required` });
  misses.push({ label: "a 1-character state", body: { ...PROPERTY, state: "C" }, rule: "state is a 2-character abbreviation" });
  misses.push({ label: "a 3-character state", body: { ...PROPERTY, state: "CAL" }, rule: "state is a 2-character abbreviation" });
  for (const garage of ["attached", "DETACHED", "none"]) misses.push({ label: `garage ${garage}`, body: { ...PROPERTY, garage }, rule: "garage is one of Attached, Detached, None, case sensitive" });
  misses.push({ label: "garage as a count", body: { ...PROPERTY, garage: "1" }, rule: "garage is one of Attached, Detached, None" });
  for (const type of PROPERTY_TYPES) {
    misses.push({ label: `property_type ${type.toLowerCase()}`, body: { ...PROPERTY, property_type: type.toLowerCase() }, rule: "property_type is one of the twelve types, case sensitive" });
    const compact = type.replace(/[ -]/g, "");
    if (compact !== type) misses.push({ label: `property_type ${compact}`, body: { ...PROPERTY, property_type: compact }, rule: "property_type is one of the twelve types as written, with their spaces" });
  }
  misses.push({ label: "property_type Attached, a garage kind", body: { ...PROPERTY, property_type: "Attached" }, rule: "property_type is one of the twelve types" });
  for (const template of ["syd", "intra"]) misses.push({ label: `the ${template} template, in the catalogue but not offered on create`, body: { ...PROPERTY, template }, rule: "template is one of the 21 machine names of endpoint 3" });
  for (const template of ["MAK", "Rubik_v2", "rubikv2"]) misses.push({ label: `template ${template}`, body: { ...PROPERTY, template }, rule: "template is one of the 21 machine names, as written" });
  misses.push({ label: "garage Single Family, a property type", body: { ...PROPERTY, garage: "Single Family" }, rule: "garage is one of Attached, Detached, None" });
  return misses;
}

/** Sends every near miss; each must be refused, and the service must keep answering. */
export async function nearMissSteps(ctx: RunContext, propertyNid: string | undefined): Promise<void> {
  for (const miss of nearMisses()) {
    await ctx.call(`create a property with ${miss.label}`, "createProperty", `${API}/property`, {
      body: miss.body,
      expect: { refusal: "negative_data_rejection", section: "4.1", rule: miss.rule },
    });
  }
  // Section 4.1: the nid of endpoint 1 is an integer; a path that holds none names no property.
  await ctx.call("retrieve a property by a nid that is not an integer", "retrieveProperty", `${API}/property/not-a-nid`, {
    expect: { refusal: "negative_data_rejection", section: "4.1", rule: "nid is an integer" },
  });
  if (!propertyNid) return;
  // Section 2.1: a property's state is 2 characters, so an edit cannot set another length and be honoured.
  for (const state of ["C", "CAL"]) {
    await ctx.call(`edit the property's state to ${state.length} character${state.length === 1 ? "" : "s"}`, "editProperty", `${API}/property/${propertyNid}`, {
      body: { state },
      expect: { refusal: "negative_data_rejection", section: "2.1", rule: "state is a 2-character abbreviation" },
    });
  }
  const step = "retrieve the property after the near misses";
  const still = await ctx.call(step, "retrieveProperty", `${API}/property/${propertyNid}`, { expect: "success" });
  ctx.check("ensure_resource_availability", { step, passed: still?.status === 200, exchange: still, operation: "retrieveProperty", section: "4.1", message: "the property is no longer retrievable after the near misses" });
}
