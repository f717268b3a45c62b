import { isDeepStrictEqual } from "node:util";
import type { Exchange } from "../http-exchange.ts";
import type { RunContext } from "../run-context.ts";
import { brokenFacts, describeKept, propertyVocabulary, type PropertyVocabulary } from "../taken-request.ts";
import { API, PROPERTY_TYPES, record, refused, type Json } from "./step-support.ts";
import { PROPERTY, PROPERTY_FIELDS, type PropertyState } from "./property-steps.ts";

/** A create body with one documented constraint of section 4.1 broken, and the constraint. */
interface NearMiss {
  label: string;
  body: Record<string, unknown>;
  rule: string;
}

const without = (field: string) => Object.fromEntries(Object.entries(PROPERTY).filter(([name]) => name !== field));

/**
 * Near misses of endpoint 3 (section 4.1), each a request the document rules out: every required field left out in
 * turn, a state of 1 and of 3 characters, and for each enum its case variants, compact variants and values of
 * a neighbouring list (templates of the catalogue that create does not offer, 2.4 against 4.1).
 */
export function nearMisses(): NearMiss[] {
  const misses: NearMiss[] = [];
  for (const field of ["street", "city", "state", "zip"])
    misses.push({ label: `no ${field}`, body: without(field), rule: `${field} is required` });
  misses.push({
    label: "a 1-character state",
    body: { ...PROPERTY, state: "C" },
    rule: "state is a 2-character abbreviation",
  });
  misses.push({
    label: "a 3-character state",
    body: { ...PROPERTY, state: "CAL" },
    rule: "state is a 2-character abbreviation",
  });
  for (const garage of ["attached", "DETACHED", "none"])
    misses.push({
      label: `garage ${garage}`,
      body: { ...PROPERTY, garage },
      rule: "garage is one of Attached, Detached, None, case sensitive",
    });
  misses.push({
    label: "garage as a count",
    body: { ...PROPERTY, garage: "1" },
    rule: "garage is one of Attached, Detached, None",
  });
  for (const type of PROPERTY_TYPES) {
    misses.push({
      label: `property_type ${type.toLowerCase()}`,
      body: { ...PROPERTY, property_type: type.toLowerCase() },
      rule: "property_type is one of the twelve types, case sensitive",
    });
    const compact = type.replace(/[ -]/g, "");
    if (compact !== type)
      misses.push({
        label: `property_type ${compact}`,
        body: { ...PROPERTY, property_type: compact },
        rule: "property_type is one of the twelve types as written, with their spaces",
      });
  }
  misses.push({
    label: "property_type Attached, a garage kind",
    body: { ...PROPERTY, property_type: "Attached" },
    rule: "property_type is one of the twelve types",
  });
  for (const template of ["syd", "intra"])
    misses.push({
      label: `the ${template} template, in the catalogue but not offered on create`,
      body: { ...PROPERTY, template },
      rule: "template is one of the 21 machine names of endpoint 3",
    });
  for (const template of ["MAK", "Rubik_v2", "rubikv2"])
    misses.push({
      label: `template ${template}`,
      body: { ...PROPERTY, template },
      rule: "template is one of the 21 machine names, as written",
    });
  misses.push({
    label: "garage Single Family, a property type",
    body: { ...PROPERTY, garage: "Single Family" },
    rule: "garage is one of Attached, Detached, None",
  });
  return misses;
}

/**
 * Sends every near miss. None must be refused: no sentence of the document says invalid input is refused (section 7
 * shows no error of these operations). A refusal is a fact only in what it did: nothing (no property appears in
 * the user's list, the property edited is unchanged), and never a 5xx. A near miss the service takes is judged by
 * what it stored: every fact of 2.1 the retrieved property must keep, each failing with its section; that it was
 * taken at all (stored in the documented form, or ignored) is a warning of the assumption tier, a failure under
 * `--strict`. A plain run leaves at most 14 properties: once a taken near miss has used the last of them, the
 * create near misses that change one value are sent as edits of the property with the required fields only, and
 * those that leave a field out are not sent, with the reason.
 */
export async function nearMissSteps(ctx: RunContext, properties: PropertyState | undefined): Promise<void> {
  const vocabulary = propertyVocabulary(ctx.contract);
  const uid = properties?.uid;
  const before = uid ? await listedNids(ctx, uid, "list the user's properties before the near misses") : undefined;
  const taken = new Set<string>();
  for (const miss of nearMisses()) {
    const step = `create a property with ${miss.label}`;
    if (ctx.propertyRoom() <= 0) {
      const value = oneValue(miss.body);
      if (value && properties?.minimalNid) {
        await ruledOutEdit(
          ctx,
          vocabulary,
          `edit the property with the required fields only to ${miss.label}, not created`,
          properties.minimalNid,
          value,
          "4.1",
          miss.rule,
        );
      } else {
        ctx.skip(
          "negative_data_rejection",
          step,
          "not sent: the run has made the properties it may leave, and the service takes creates the " +
            "document rules out, so this one would leave one more",
          "createProperty",
        );
      }
      continue;
    }
    const answer = await ctx.call(step, "createProperty", `${API}/property`, {
      body: miss.body,
      expect: "any",
      point: "error.validation",
    });
    if (!answer) continue;
    if (refused(answer)) {
      judgeRefusal(ctx, step, answer, "4.1", miss.rule);
      continue;
    }
    const nid = record(answer)?.nid;
    if (typeof nid !== "string" && typeof nid !== "number") continue;
    taken.add(String(nid));
    const retrieveStep = `retrieve the property made by the near miss ${miss.label}`;
    const after = await ctx.call(
      retrieveStep,
      "retrieveProperty",
      `${API}/property/${encodeURIComponent(String(nid))}`,
      { expect: "success" },
    );
    judgeTaken(ctx, vocabulary, {
      step,
      retrieveStep,
      answer,
      after,
      sent: miss.body,
      fields: fieldsBroken(miss.body),
      before: undefined,
      section: "4.1",
      rule: miss.rule,
    });
  }
  if (uid && before) {
    const step = "list the user's properties after the near misses";
    const now = await listedNids(ctx, uid, step);
    if (now) {
      const appeared = [...now].filter((nid) => !before.has(nid) && !taken.has(nid));
      for (const nid of appeared) ctx.noteProperty(nid, "made by a near miss the service refused");
      ctx.check("negative_data_rejection", {
        step,
        passed: appeared.length === 0,
        operation: "listUserProperties",
        section: "4.1",
        message:
          `near misses the service refused left ${appeared.length === 1 ? "a property" : "properties"} behind: ` +
          `${appeared.join(", ")} (a refusal changes nothing)`,
      });
    }
  }
  // Section 4.1: the nid of endpoint 1 is an integer; a path that holds none names no property.
  const retrieveStep = "retrieve a property by a nid that is not an integer";
  const wrongNid = await ctx.call(retrieveStep, "retrieveProperty", `${API}/property/not-a-nid`, {
    expect: "any",
    point: "error.validation",
  });
  if (wrongNid && refused(wrongNid)) judgeRefusal(ctx, retrieveStep, wrongNid, "4.1", "nid is an integer");
  else if (wrongNid) {
    // Taken: its answer was held to the contract like any other; that it answered at all is our expectation's miss.
    ctx.check("negative_data_rejection", {
      step: retrieveStep,
      passed: false,
      exchange: wrongNid,
      operation: "retrieveProperty",
      tier: "assumption",
      message:
        `taken (${wrongNid.status}): the path names no integer nid (section 4.1); we expect a refusal, which ` +
        `the document does not require`,
    });
  }
  const propertyNid = properties?.nid;
  if (!propertyNid) return;
  // Section 2.1: a property's state is 2 characters, so an edit cannot set another length and keep that fact.
  for (const state of ["C", "CAL"]) {
    await ruledOutEdit(
      ctx,
      vocabulary,
      `edit the property's state to ${state.length} character${state.length === 1 ? "" : "s"}`,
      propertyNid,
      { state },
      "2.1",
      "state is a 2-character abbreviation",
    );
  }
  const step = "retrieve the property after the near misses";
  const still = await ctx.call(step, "retrieveProperty", `${API}/property/${propertyNid}`, { expect: "success" });
  ctx.check("ensure_resource_availability", {
    step,
    passed: still?.status === 200,
    exchange: still,
    operation: "retrieveProperty",
    section: "4.1",
    message: "the property is no longer retrievable after the near misses",
  });
}

/** The one field a near miss sets to another value than the property with every field (none when it leaves one out). */
function oneValue(body: Json): Json | undefined {
  const reference = PROPERTY as Json;
  if (Object.keys(body).length !== Object.keys(reference).length) return undefined;
  const changed = Object.entries(body).filter(([field, value]) => !isDeepStrictEqual(reference[field], value));
  return changed.length === 1 ? Object.fromEntries(changed) : undefined;
}

/** An edit the document rules out, sent to a property of the run, then judged by what a retrieve shows. */
async function ruledOutEdit(
  ctx: RunContext,
  vocabulary: PropertyVocabulary,
  step: string,
  nid: string,
  body: Json,
  section: string,
  rule: string,
): Promise<void> {
  const path = `${API}/property/${encodeURIComponent(nid)}`;
  const firstAnswer = await ctx.call(`${step}: retrieve the property first`, "retrieveProperty", path, {
    expect: "success",
  });
  const before = record(firstAnswer);
  const answer = await ctx.call(step, "editProperty", path, { body, expect: "any", point: "error.validation" });
  if (!answer) return;
  const retrieveStep = `${step}: retrieve the property after`;
  const after = await ctx.call(retrieveStep, "retrieveProperty", path, { expect: "success" });
  if (refused(answer)) {
    judgeRefusal(ctx, step, answer, section, rule);
    const now = record(after);
    // A retrieve without an answer judges nothing: what rested on it is skipped, with the request that never came.
    const unanswered = ctx.missing(
      [firstAnswer, after],
      after === undefined ? retrieveStep : `${step}: retrieve the property first`,
    );
    if (unanswered) ctx.skip("negative_data_rejection", retrieveStep, unanswered, "retrieveProperty");
    if (!before || !now) return;
    const moved = PROPERTY_FIELDS.filter((field) => !isDeepStrictEqual(before[field], now[field]));
    ctx.check("negative_data_rejection", {
      step: retrieveStep,
      passed: moved.length === 0,
      exchange: after,
      operation: "retrieveProperty",
      section: "4.1",
      message: `the service refused the edit (${answer.status}), yet ${moved
        .slice(0, 5)
        .map((field) => `${field} changed from ${JSON.stringify(before[field])} to ${JSON.stringify(now[field])}`)
        .join("; ")} (a refusal changes nothing)`,
    });
    return;
  }
  judgeTaken(ctx, vocabulary, {
    step,
    retrieveStep,
    answer,
    after,
    sent: body,
    fields: Object.keys(body),
    before,
    section,
    rule,
  });
}

/** A refusal of a request the document rules out: as right as taking it. A 5xx is not_a_server_error's failure. */
function judgeRefusal(ctx: RunContext, step: string, answer: Exchange, section: string, rule: string): void {
  if (answer.status >= 500) return;
  ctx.check("negative_data_rejection", {
    step,
    passed: true,
    exchange: answer,
    section,
    message: `the request breaks a documented rule (${rule}) and was refused with ${answer.status}`,
  });
}

/** What a taken request is judged by: the property a retrieve shows after it, and how the field it broke was kept. */
interface Taken {
  step: string;
  retrieveStep: string;
  answer: Exchange;
  after: Exchange | undefined;
  sent: Json;
  /** The fields the request breaks the rule with (sent, or left out). */
  fields: string[];
  /** The property before the request, for an edit; undefined for a create. */
  before: Json | undefined;
  section: string;
  rule: string;
}

/**
 * A request the document rules out that the service took: each fact of 2.1 the retrieved property breaks fails
 * with its section (its schema was held already, on the retrieve), and the warning says how each field the
 * request broke was kept: in the documented form, ignored, or as another value.
 */
function judgeTaken(ctx: RunContext, vocabulary: PropertyVocabulary, taken: Taken): void {
  const property = record(taken.after);
  const unanswered = ctx.missing([taken.after], taken.retrieveStep);
  if (unanswered) {
    // The request was taken, and the retrieve that would show what it left never answered: judged no further.
    ctx.skip("negative_data_rejection", taken.retrieveStep, unanswered, "retrieveProperty");
    return;
  }
  if (!property) {
    ctx.check("ensure_resource_availability", {
      step: taken.retrieveStep,
      passed: false,
      exchange: taken.after,
      operation: "retrieveProperty",
      section: "4.1",
      message: `the service took the request (${taken.answer.status}), and the property it names cannot be retrieved`,
    });
    return;
  }
  const sentEmpty = new Set(
    Object.entries(taken.sent)
      .filter(([, value]) => value === "")
      .map(([field]) => field),
  );
  const broken = brokenFacts(property, vocabulary, sentEmpty);
  for (const fact of broken) {
    ctx.check("negative_data_rejection", {
      step: taken.retrieveStep,
      passed: false,
      exchange: taken.after,
      operation: "retrieveProperty",
      section: fact.section,
      message:
        `the service took a request the document rules out (${taken.rule}) and then breaks a documented fact: ` +
        `${fact.fact} (section ${fact.section}): ${fact.message}`,
    });
  }
  if (broken.length === 0)
    ctx.check("negative_data_rejection", {
      step: taken.retrieveStep,
      passed: true,
      exchange: taken.after,
      operation: "retrieveProperty",
      section: "2.1",
      message: "",
    });
  const kept = taken.fields.map((field) =>
    describeKept(field, taken.sent[field], property[retrievedAs(field)], taken.before?.[retrievedAs(field)]),
  );
  ctx.check("negative_data_rejection", {
    step: taken.step,
    passed: false,
    exchange: taken.answer,
    tier: "assumption",
    section: taken.section,
    message:
      `the request breaks a documented rule (${taken.rule}) and was ` +
      `${kept.join("; ") || `taken (${taken.answer.status})`}: we expect a refusal, which the document does ` +
      `not require`,
    expected: "a refusal (any status but 2xx)",
    actual: `${taken.answer.status}`,
  });
}

/** The fields a near miss breaks: the one it changes from the property with every field, or the one it leaves out. */
function fieldsBroken(sent: Json): string[] {
  const reference = PROPERTY as Json;
  const missing = Object.keys(reference).filter((field) => !(field in sent));
  return missing.length > 0
    ? missing
    : Object.keys(sent).filter((field) => !isDeepStrictEqual(reference[field], sent[field]));
}

/** The name a create field comes back under (section 4.1 spells square feet with a space; 2.1 does not). */
function retrievedAs(field: string): string {
  return field === "square feet" ? "square_feet" : field;
}

/** The nids a list-by-user answer holds, or undefined. */
async function listedNids(ctx: RunContext, uid: string, step: string): Promise<Set<string> | undefined> {
  const listed = await ctx.call(step, "listUserProperties", `${API}/properties/${uid}`, { expect: "success" });
  return listed?.status === 200 && Array.isArray(listed.body)
    ? new Set((listed.body as Json[]).map((entry) => String(entry?.nid)))
    : undefined;
}
