import { isDeepStrictEqual } from "node:util";
import type { Exchange } from "../http-exchange.ts";
import type { Needs, RunContext } from "../run-context.ts";
import { compareFields, PROPERTY_SAMENESS } from "./sent-value.ts";
import {
  API,
  compactKey,
  CREATE_TEMPLATES,
  GARAGE_KINDS,
  PROPERTY_TYPES,
  differences,
  isNumericStringOf,
  record,
  show,
  type Json,
  type RunNames,
} from "./step-support.ts";

/** A create body with every documented field of endpoint 3 (section 4.1). */
export const PROPERTY = {
  street: "88 Contract Run Way",
  city: "San Francisco",
  state: "CA",
  zip: "94107",
  "square feet": 2150,
  bedrooms: 3,
  baths: 2,
  list_price: 1250000,
  garage: "Attached",
  stories: 2,
  lot_size: "4,356",
  parking_spaces: 2,
  description: "<p>Contract run property.</p>",
  property_type: "Single Family",
  year_built: 1998,
  template: "rubik_v2",
};

/** Create fields sent as integers, and the field each comes back as, a numeric string (section 2.1). */
const NUMBERS: Array<[keyof typeof PROPERTY, string]> = [
  ["square feet", "square_feet"],
  ["bedrooms", "bedrooms"],
  ["baths", "baths"],
  ["list_price", "list_price"],
  ["stories", "stories"],
  ["parking_spaces", "parking_spaces"],
  ["year_built", "year_built"],
];
const STRINGS = ["street", "city", "state", "zip", "lot_size", "description", "template"] as const;

/** Optional create fields (section 4.1) and the external id: a property created without them has no value. */
const NEVER_SET = [
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
];
/** Fields that are not scalars, or that the document lets be empty (`premise`). */
const NOT_SCALAR = ["open_houses", "virtual_tours", "property_videos", "floorplans", "premise"];

/** The fields of a property (section 2.1): an answer may carry more, which may change as they like. */
export const PROPERTY_FIELDS = [
  "nid",
  "uid",
  "street",
  "premise",
  "city",
  "state",
  "zip",
  "country",
  "title",
  "description",
  "amenities",
  "list_price",
  "display_price",
  "square_feet",
  "lot_size",
  "lot_size_units",
  "stories",
  "bedrooms",
  "baths",
  "half_baths",
  "garage",
  "parking_spaces",
  "listing_status",
  "property_type",
  "year_built",
  "open_houses",
  "subdomain",
  "custom_domain",
  "mls_id",
  "template",
  "api_author",
  "main_image",
  "edit_access",
  "show_on_property",
  "logo",
  "external_id",
  "skip_zlookup",
  "intent",
  "sns_id",
  "listtrack_property_id",
  "website_url",
  "virtual_tours",
  "property_videos",
  "floorplans",
];
/** The fields of a list item of endpoint 5 (section 2.1). */
const LIST_ITEM_FIELDS = ["nid", "published", "title", "external_id"];

/** Only the documented fields of an object, to compare answers that may carry more. */
export function documented(value: unknown, fields: readonly string[]): Json | undefined {
  if (value === null || typeof value !== "object") return undefined;
  return Object.fromEntries(fields.map((field) => [field, (value as Json)[field]]));
}

/**
 * An edit of every scalar field of section 2.1 but the identifiers, each with a string value (section 4.1, endpoint
 * 4). garage and property_type are left to everyEnumValue: which of their forms an edit takes (the create's words,
 * or the counts and compact forms retrieve shows) is not shown, so a refusal of them must not sink this edit.
 */
function fullEdit(tag: string): Record<string, string> {
  const host = tag.toLowerCase();
  return {
    street: "1 Contract Run Way",
    premise: "Suite 100",
    city: "Oakland",
    state: "NY",
    zip: "10001",
    country: "United States",
    title: `Contract Run ${tag}`,
    description: "<p>Edited by a contract run.</p>",
    amenities: "Pool,Garden",
    list_price: "1300000",
    display_price: "$1,300,000",
    square_feet: "2200",
    lot_size: "5,000",
    lot_size_units: "acres",
    stories: "3",
    bedrooms: "4",
    baths: "3",
    half_baths: "1",
    parking_spaces: "3",
    listing_status: "Active",
    year_built: "2001",
    subdomain: `contract-run-${host}`,
    custom_domain: `${host}.contract-run.example`,
    mls_id: `MLS-${tag}`,
    template: "kit",
    api_author: "Contract run",
    main_image: "7",
    edit_access: "1",
    show_on_property: "1",
    logo: "7",
    external_id: `contract-${tag}`,
    skip_zlookup: "1",
    intent: "rent",
    sns_id: `sns-${tag}`,
    listtrack_property_id: `lt-${tag}`,
    website_url: `https://${host}.contract-run.example/`,
  };
}

/** What later steps need of the properties: the main one, its owner, its external id, and a minimal one. */
export interface PropertyState {
  nid: string;
  uid: string | undefined;
  externalId: string;
  minimalNid: string | undefined;
}

/**
 * Endpoints 1 to 5: create with every field, retrieve, edit every field, edit one, find by external id, list by
 * user; and a property created with the required fields only, whose other fields must be absent.
 */
export async function propertySteps(ctx: RunContext, names: RunNames): Promise<PropertyState | undefined> {
  const created = record(
    await ctx.call("create a property with every documented field", "createProperty", `${API}/property`, {
      body: PROPERTY,
      expect: "success",
    }),
  );
  const nid = typeof created?.nid === "string" ? created.nid : undefined;
  if (!nid) {
    for (const check of ["create_round_trip", "edit_visible", "external_id_lookup", "list_consistency"] as const)
      ctx.skip(check, "property steps", "the property could not be created");
    return undefined;
  }
  const step = "retrieve the property";
  const first = await ctx.call(step, "retrieveProperty", `${API}/property/${nid}`, { expect: "success" });
  const property = record(first);
  ctx.check("ensure_resource_availability", {
    step,
    passed: property?.nid === nid,
    exchange: first,
    operation: "retrieveProperty",
    section: "4.1",
    message: `the created property ${nid} could not be retrieved by its nid`,
    expected: `property ${nid}`,
    actual: show(property?.nid),
  });
  // Without this answer the property still exists: what rests on its fields (the round trip, its uid for the
  // list) is left out, the rest goes on.
  if (property) {
    checkCreated(ctx, first!, property);
    // The property with every field is the sweep's first value (below): its garage kind, property type and template.
    await representationOf(ctx, nid, {
      garage: PROPERTY.garage,
      property_type: PROPERTY.property_type,
      template: PROPERTY.template,
    });
  } else
    ctx.skip(
      "create_round_trip",
      step,
      ctx.missing([first]) ?? `the created property ${nid} could not be retrieved`,
      "retrieveProperty",
    );
  const firstUid = typeof property?.uid === "string" ? property.uid : undefined;
  const listedBefore = firstUid ? await listOf(ctx, firstUid, "list the user's properties") : undefined;

  const edit = fullEdit(names.tag);
  const externalId = edit.external_id!;
  const editAnswer = await ctx.call("edit every field of the property", "editProperty", `${API}/property/${nid}`, {
    body: edit,
    expect: "success",
  });
  const edited = record(editAnswer);
  if (edited)
    ctx.check("edit_visible", {
      step: "edit every field of the property",
      passed: edited.nid === nid,
      operation: "editProperty",
      section: "4.1",
      message: `the edit answered nid ${show(edited.nid)}`,
      expected: show(nid),
      actual: show(edited.nid),
    });
  const afterEdit = await ctx.call("retrieve the edited property", "retrieveProperty", `${API}/property/${nid}`, {
    expect: "success",
  });
  const changed = record(afterEdit);
  const uid = firstUid ?? (typeof changed?.uid === "string" ? changed.uid : undefined);
  if (!uid)
    ctx.skip(
      "list_consistency",
      "list the user's properties",
      "the property's uid is not known: no retrieve of it gave a property",
      "listUserProperties",
    );
  if (changed) {
    const { facts, readings } = compareFields(changed, edit, PROPERTY_SAMENESS);
    ctx.check("edit_visible", {
      step: "retrieve the edited property",
      passed: facts.length === 0,
      exchange: afterEdit,
      needs: [editAnswer],
      operation: "retrieveProperty",
      section: "4.1",
      message: `the edit of every field does not show: ${facts.join("; ")}`,
    });
    ctx.check("edit_visible", {
      step: "retrieve the edited property (our reading of the text sent)",
      passed: readings.length === 0,
      exchange: afterEdit,
      needs: [editAnswer],
      operation: "retrieveProperty",
      tier: "assumption",
      message: `the edit shows in other text than sent: ${readings.join("; ")}`,
    });
  }

  // Section 2.1: premise may be an empty string; it must come back as one.
  const premiseAnswer = await ctx.call(
    "edit one field of the property, premise to an empty string",
    "editProperty",
    `${API}/property/${nid}`,
    { body: { premise: "" }, expect: "success" },
  );
  const one = await ctx.call(
    "retrieve the property after editing one field",
    "retrieveProperty",
    `${API}/property/${nid}`,
    { expect: "success" },
  );
  const afterOne = record(one);
  if (changed && afterOne) {
    const wrong = [
      ...(afterOne.premise === ""
        ? []
        : [`premise is ${show(afterOne.premise)}, edited to "" (section 2.1: premise may be an empty string)`]),
      ...PROPERTY_FIELDS.filter(
        (field) => field !== "premise" && !isDeepStrictEqual(changed[field], afterOne[field]),
      ).map((field) => `${field} changed from ${show(changed[field])} to ${show(afterOne[field])} without being named`),
    ];
    ctx.check("edit_visible", {
      step: "retrieve the property after editing one field",
      passed: wrong.length === 0,
      exchange: one,
      needs: [editAnswer, premiseAnswer],
      operation: "retrieveProperty",
      section: "4.1",
      message: wrong.join("; "),
    });
  }

  const byExternal = await ctx.call(
    "retrieve the property by its external id",
    "retrievePropertyByExternalId",
    `${API}/external-property/${encodeURIComponent(externalId)}`,
    { expect: "success", needs: [editAnswer] },
  );
  const found = record(byExternal);
  const latest = afterOne ?? changed;
  const notTheSame = (found: Record<string, unknown>, latest: Record<string, unknown>): string => {
    const differing = differences(documented(found, PROPERTY_FIELDS)!, documented(latest, PROPERTY_FIELDS)!);
    return `, not the object endpoint 1 answers (${differing.slice(0, 3).join("; ")})`;
  };
  ctx.check("external_id_lookup", {
    step: "retrieve the property by its external id",
    exchange: byExternal,
    operation: "retrievePropertyByExternalId",
    section: "4.1",
    needs: [editAnswer],
    passed:
      found !== undefined &&
      found.nid === nid &&
      found.external_id === externalId &&
      (latest === undefined || sameProperty(found, latest)),
    message: found
      ? `endpoint 2 answered property ${show(found.nid)} with external_id ${show(found.external_id)}` +
        (latest && !sameProperty(found, latest) ? notTheSame(found, latest) : "")
      : "endpoint 2 found no property",
    expected: `property ${nid}, the same object as endpoint 1`,
  });

  if (uid && latest) await checkList(ctx, uid, nid, latest, externalId, listedBefore, [editAnswer]);
  const minimalNid = await minimalProperty(ctx);
  await everyEnumValue(ctx, minimalNid);
  return { nid, uid, externalId, minimalNid };
}

/**
 * Whether two answers hold the same property: its documented fields (extras, such as a timestamp of access, may
 * differ).
 */
function sameProperty(a: Json, b: Json): boolean {
  return isDeepStrictEqual(documented(a, PROPERTY_FIELDS), documented(b, PROPERTY_FIELDS));
}

/** Section 2.1: what the create sent comes back, numbers as numeric strings, the type compact, garage a count. */
function checkCreated(ctx: RunContext, exchange: Exchange, property: Json): void {
  const problems = [
    ...STRINGS.filter((field) => property[field] !== PROPERTY[field]).map(
      (field) => `${field} is ${show(property[field])}, sent ${show(PROPERTY[field])}`,
    ),
    ...NUMBERS.filter(([sent, field]) => !isNumericStringOf(property[field], PROPERTY[sent] as number)).map(
      ([sent, field]) =>
        `${field} is ${show(property[field])}, sent ${sent}: ${PROPERTY[sent]} (numbers come back as numeric strings)`,
    ),
  ];
  const type = property.property_type;
  if (typeof type !== "string" || type.includes(" ") || compactKey(type) !== compactKey(PROPERTY.property_type))
    problems.push(`property_type is ${show(type)}, expected a compact form of "Single Family" without spaces`);
  if (typeof property.garage !== "string" || !/^[0-9]+$/.test(property.garage))
    problems.push(`garage is ${show(property.garage)}, expected a count-like numeric string`);
  ctx.check("create_round_trip", {
    step: "retrieve the property",
    passed: problems.length === 0,
    exchange,
    operation: "retrieveProperty",
    section: "2.1",
    message: problems.join("; "),
  });
  const ours = [
    ...(property.garage === "1" ? [] : [`garage "Attached" comes back as ${show(property.garage)}, we expect "1"`]),
    ...(type === "SingleFamily"
      ? []
      : [`property_type "Single Family" comes back as ${show(type)}, we expect "SingleFamily"`]),
  ];
  ctx.check("create_round_trip", {
    step: "retrieve the property (our reading of the compact forms)",
    passed: ours.length === 0,
    exchange,
    operation: "retrieveProperty",
    tier: "assumption",
    message: ours.join("; "),
  });
}

async function listOf(ctx: RunContext, uid: string, step: string): Promise<Json[] | undefined> {
  const listed = await ctx.call(step, "listUserProperties", `${API}/properties/${uid}`, { expect: "success" });
  return listed?.status === 200 && Array.isArray(listed.body) ? (listed.body as Json[]) : undefined;
}

/** Whether a list entry is a record of a contract run (this one or another at the same time), which may move. */
function fromARun(entry: Json): boolean {
  return (
    entry.title === null ||
    String(entry.title).includes("Contract Run") ||
    String(entry.external_id ?? "").startsWith("contract-")
  );
}

/** Endpoint 5: the property is listed with its nid, title, external id and published flag; nothing else moved. */
async function checkList(
  ctx: RunContext,
  uid: string,
  nid: string,
  property: Json,
  externalId: string,
  before: Json[] | undefined,
  needs: Needs,
): Promise<void> {
  const step = "list the user's properties after the edits";
  const listed = await ctx.call(step, "listUserProperties", `${API}/properties/${uid}`, { expect: "success" });
  const items = listed?.status === 200 && Array.isArray(listed.body) ? (listed.body as Json[]) : undefined;
  if (!items) return;
  const item = items.find((entry) => entry?.nid === nid);
  ctx.check("ensure_resource_availability", {
    step,
    passed: item !== undefined,
    exchange: listed,
    operation: "listUserProperties",
    section: "4.1",
    message: `property ${nid} is not in the list of user ${uid}`,
  });
  if (item) {
    const wrong = [
      ...(item.title === property.title
        ? []
        : [`title is ${show(item.title)}, the property's is ${show(property.title)}`]),
      ...(item.external_id === externalId
        ? []
        : [`external_id is ${show(item.external_id)}, the property's is ${show(externalId)}`]),
      ...(typeof item.published === "string"
        ? []
        : [`published is ${show(item.published)}, not a string (section 2.1)`]),
    ];
    ctx.check("list_consistency", {
      step,
      passed: wrong.length === 0,
      exchange: listed,
      needs,
      operation: "listUserProperties",
      section: "2.1",
      message: `the list item of property ${nid}: ${wrong.join("; ")}`,
    });
  }
  if (!before) return;
  const now = new Map(items.map((entry) => [entry?.nid, entry]));
  const moved = before
    .filter((entry) => entry && entry.nid !== nid && !fromARun(entry))
    .filter(
      (entry) =>
        !isDeepStrictEqual(documented(now.get(entry.nid), LIST_ITEM_FIELDS), documented(entry, LIST_ITEM_FIELDS)),
    )
    .map(
      (entry) =>
        `property ${show(entry.nid)} ` +
        (now.has(entry.nid)
          ? `changed from ${JSON.stringify(documented(entry, LIST_ITEM_FIELDS))} ` +
            `to ${JSON.stringify(documented(now.get(entry.nid), LIST_ITEM_FIELDS))}`
          : "is no longer listed"),
    );
  ctx.check("list_consistency", {
    step,
    passed: moved.length === 0,
    exchange: listed,
    operation: "listUserProperties",
    section: "4.1",
    message: `editing property ${nid} moved other entries: ${moved.slice(0, 5).join("; ")}`,
  });
}

/** Section 2.1: a property created with the required fields only answers null for what it was never given. */
async function minimalProperty(ctx: RunContext): Promise<string | undefined> {
  const body = { street: "2 Contract Run Way", city: "Austin", state: "TX", zip: "78701" };
  const created = record(
    await ctx.call("create a property with the required fields only", "createProperty", `${API}/property`, {
      body,
      expect: "success",
    }),
  );
  const nid = typeof created?.nid === "string" ? created.nid : undefined;
  if (!nid) return undefined;
  const step = "retrieve the property created with the required fields only";
  const fetched = await ctx.call(step, "retrieveProperty", `${API}/property/${nid}`, { expect: "success" });
  const property = record(fetched);
  if (!property) return nid;
  const sent = differences(property, body);
  ctx.check("create_round_trip", {
    step,
    passed: sent.length === 0,
    exchange: fetched,
    operation: "retrieveProperty",
    section: "4.1",
    message: sent.join("; "),
  });
  const problems = [
    ...NEVER_SET.filter((field) => property[field] !== null).map(
      (field) => `${field} is ${show(property[field])}, expected null: the create did not send it`,
    ),
    ...Object.keys(property)
      .filter((field) => property[field] === "" && !NOT_SCALAR.includes(field) && !NEVER_SET.includes(field))
      .map((field) => `${field} is "", expected null or a value`),
  ];
  ctx.check("absent_is_null", {
    step,
    passed: problems.length === 0,
    exchange: fetched,
    operation: "retrieveProperty",
    section: "2.1",
    message: `${problems.join("; ")} (absent values come back as null)`,
  });
  return nid;
}

/** The enum values a step sets: garage and property_type may be left out (an edit of the template alone). */
interface EnumValues {
  garage?: string;
  property_type?: string;
  template: string;
}

/** Retrieves a property created with these values and holds each to its documented form (section 2.1). */
async function representationOf(ctx: RunContext, nid: string, values: EnumValues): Promise<void> {
  const step =
    `retrieve the property created with garage ${values.garage}, property_type ${values.property_type}, ` +
    `template ${values.template}`;
  const answer = await ctx.call(step, "retrieveProperty", `${API}/property/${nid}`, { expect: "success" });
  const property = record(answer);
  if (!property) return;
  const wrong = misrepresented(property, values);
  ctx.check("documented_representation", {
    step,
    passed: wrong.length === 0,
    exchange: answer,
    operation: "retrieveProperty",
    section: "2.1",
    message: wrong.join("; "),
  });
}

/** Whether each value sent comes back in its documented form (section 2.1); the problems, if not. */
function misrepresented(property: Json, sent: EnumValues): string[] {
  const { garage, property_type: type, template } = property;
  return [
    ...(sent.garage === undefined || (typeof garage === "string" && /^[0-9]+$/.test(garage))
      ? []
      : [`garage ${sent.garage} comes back as ${show(garage)}, not a count-like numeric string`]),
    ...(sent.property_type === undefined ||
    (typeof type === "string" && !/\s/.test(type) && compactKey(type) === compactKey(sent.property_type))
      ? []
      : [`property_type ${sent.property_type} comes back as ${show(type)}, not its compact form without spaces`]),
    ...(template === sent.template ? [] : [`template ${sent.template} comes back as ${show(template)}`]),
  ];
}

/**
 * Section 2.1 fixes how each value comes back, not only the ones the scenario happens to send: every garage
 * kind as a count-like numeric string, every property type in a compact form without spaces, every template as
 * its machine name. Section 4.1 lists these values for a create, so the sweep creates: one property per property
 * type (11, the property with every field being the twelfth), the garage kinds and the create templates cycling through
 * them, each retrieved and held to the fact. A property cannot be deleted, so each is left behind; the templates the
 * creates did not reach (9) are set by edit of the property with the required fields only, where a refusal is a warning
 * (section 4.1 does not say which values an edit takes), then tried with the template alone, and the representation,
 * once an edit takes a value, a fact.
 */
async function everyEnumValue(ctx: RunContext, minimalNid: string | undefined): Promise<void> {
  const reached = new Set<string>([PROPERTY.template]);
  // Single Family is the property with every field's own type (seen by representationOf): 11 creates, not 12, so
  // that a plain run keeps one property of its 14 for a near miss a lenient service takes.
  for (let turn = 0; turn < PROPERTY_TYPES.length; turn += 1) {
    if (PROPERTY_TYPES[turn] === PROPERTY.property_type) continue;
    const values = {
      garage: GARAGE_KINDS[turn % GARAGE_KINDS.length]!,
      property_type: PROPERTY_TYPES[turn]!,
      template: CREATE_TEMPLATES[turn % CREATE_TEMPLATES.length]!,
    };
    reached.add(values.template);
    const label = `garage ${values.garage}, property_type ${values.property_type}, template ${values.template}`;
    const body = { street: `${turn + 10} Contract Run Way`, city: "Austin", state: "TX", zip: "78701", ...values };
    const created = record(
      await ctx.call(`create a property with ${label}`, "createProperty", `${API}/property`, {
        body,
        expect: "success",
      }),
    );
    const nid = typeof created?.nid === "string" ? created.nid : undefined;
    if (nid) await representationOf(ctx, nid, values);
  }
  const rest = CREATE_TEMPLATES.filter((template) => !reached.has(template));
  if (!minimalNid) {
    if (rest.length > 0)
      ctx.skip(
        "documented_representation",
        `every template from ${rest[0]} on, set by edit`,
        "the property with the required fields only could not be created",
      );
    return;
  }
  for (const [turn, template] of rest.entries()) {
    const edit = {
      garage: GARAGE_KINDS[turn % GARAGE_KINDS.length]!,
      property_type: PROPERTY_TYPES[turn % PROPERTY_TYPES.length]!,
      template,
    };
    const label = `garage ${edit.garage}, property_type ${edit.property_type}, template ${edit.template}`;
    const editStep = `edit the property to ${label}`;
    const edited = await ctx.call(editStep, "editProperty", `${API}/property/${minimalNid}`, {
      body: edit,
      expect: "any",
    });
    // No answer: whether the edit took is unknown; the next template is another edit, which does not rest on this one.
    if (!edited) continue;
    let sent: EnumValues = edit;
    if (edited.status !== 200) {
      // Section 4.1 gives the values of endpoint 3, not which values an edit takes: a refusal here is not a failure.
      ctx.check("documented_representation", {
        step: editStep,
        passed: false,
        exchange: edited,
        operation: "editProperty",
        tier: "assumption",
        message: `the edit to the create's values was refused (${edited.status}); we expect an edit to take them`,
        actual: `${edited.status} ${edited.text.slice(0, 200)}`,
      });
      // The template alone, so that a service taking only its own forms of garage and property_type still shows it.
      const alone = await ctx.call(
        `edit the property to template ${template} alone`,
        "editProperty",
        `${API}/property/${minimalNid}`,
        { body: { template }, expect: "any" },
      );
      if (alone?.status !== 200) continue;
      sent = { template };
    }
    const step = `retrieve the property with ${sent === edit ? label : `template ${template}`}`;
    const answer = await ctx.call(step, "retrieveProperty", `${API}/property/${minimalNid}`, { expect: "success" });
    const property = record(answer);
    if (!property) continue;
    const wrong = misrepresented(property, sent);
    ctx.check("documented_representation", {
      step,
      passed: wrong.length === 0,
      exchange: answer,
      operation: "retrieveProperty",
      section: "2.1",
      message: wrong.join("; "),
    });
  }
}
