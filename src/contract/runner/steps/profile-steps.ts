import { neverSetDefaultFields } from "../../../spec/never-set-fields.ts";
import type { RunContext } from "../run-context.ts";
import { API, record, type RunNames } from "./step-support.ts";

/** The optional create fields of endpoint 3 (section 4.1) and the external id: never set by a required-only create. */
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
/**
 * The optional fields of an agent (section 2.2) that a create with the first name, last name and email leaves unset.
 */
const AGENT_NEVER_SET = [
  "phone",
  "company",
  "professional_title",
  "license",
  "website",
  "social_media_links",
  "card_type",
  "agency_profile",
  "headshot_url",
  "notes",
];
/** A nid no service is likely to have given yet, and one every service can parse: the largest 32-bit integer. */
const UNKNOWN_NID = "2147483647";

/**
 * What an edit of the street, the subdomain and the website does to the fields derived from them: whether the
 * title follows the street, whether the website is taken as edited or derived from the subdomain. Section 4.1
 * says an edit changes the fields it names; the document says nothing of fields derived from others.
 */
async function derivedOnEdit(
  ctx: RunContext,
  names: RunNames,
  property: string,
  before: Record<string, unknown>,
): Promise<void> {
  const host = `profile-${names.tag}`.toLowerCase();
  const edit = {
    street: `4 Derived Way ${names.tag}`,
    subdomain: host,
    website_url: `https://${host}.edited.example/`,
  };
  if (
    !record(
      await ctx.call("edit the profiled property's street, subdomain and website", "editProperty", property, {
        body: edit,
        expect: "success",
      }),
    )
  )
    return;
  const answer = await ctx.call(
    "retrieve the property after the edit, to see its derived fields",
    "retrieveProperty",
    property,
    { expect: "success" },
  );
  const after = record(answer);
  if (!after || !answer) return;
  const observed = {
    title: after.title === before.title ? "kept" : after.title === edit.street ? "follows-street" : "other",
    website_url:
      after.website_url === edit.website_url
        ? "as-edited"
        : after.website_url === before.website_url
          ? "kept"
          : typeof after.website_url === "string" && after.website_url.includes(host)
            ? "from-subdomain"
            : "other",
  };
  ctx.observeOnly("the property's derived fields after an edit", answer, "derived.edit_property", observed);
}

/**
 * An agent created with the fields every create needs (first name, last name, email) and nothing else: how its
 * other fields come back (section 2.2 types them without saying what a field never set holds). It is deleted
 * after, to free its seat; on an account without a free seat the point is not reached.
 */
async function agentNeverSet(ctx: RunContext, names: RunNames): Promise<void> {
  const body = {
    agent_first_name: "Unset",
    agent_last_name: names.tag,
    email: `unset-${names.tag}@contract-run.example`.toLowerCase(),
  };
  const created = record(
    await ctx.call(
      "create an agent with its names and email only, to profile",
      "createAgentCard",
      `${API}/agent_card/`,
      { body, expect: "any" },
    ),
  );
  if (typeof created?.nid !== "string") return;
  const agent = `${API}/agent_card/${created.nid}`;
  await ctx.call("retrieve the agent created with its names and email only, to profile", "retrieveAgentCard", agent, {
    expect: "success",
    point: "unset.agent",
    unsetFields: AGENT_NEVER_SET,
  });
  await ctx.call("delete the agent created to profile", "deleteAgentCard", agent, { expect: "success" });
}

/**
 * An external id another property of the account has, given to a second one by an edit (endpoint 4 sets it):
 * the document does not say whether external ids are unique (section 4.1), so the service may refuse it (how,
 * is an error point) or take it.
 */
async function externalIdInUse(
  ctx: RunContext,
  names: RunNames,
  property: string,
  body: Record<string, string>,
): Promise<void> {
  const externalId = `profile-ext-${names.tag}`.toLowerCase();
  if (
    !record(
      await ctx.call("give the profiled property an external id", "editProperty", property, {
        body: { external_id: externalId },
        expect: "success",
      }),
    )
  )
    return;
  const second = record(
    await ctx.call("create a second property, to give it the same external id", "createProperty", `${API}/property`, {
      body: { ...body, street: `5 Second Profile Way ${names.tag}` },
      expect: "success",
    }),
  );
  if (typeof second?.nid !== "string") return;
  await ctx.call(
    "give the second property the external id of the first",
    "editProperty",
    `${API}/property/${second.nid}`,
    { body: { external_id: externalId }, expect: "any", point: "error.external_id_in_use" },
  );
}

/**
 * Only when a service profile is recorded or compared (`--write-profile`, `--profile`): requests that provoke
 * the situations the scenario does not, so that the profile holds what the service answers there. The empty
 * agent list of the fresh account, the never-set fields of a property created with the required fields only and of an
 * agent, a retrieve without content-type, a body as text/plain, a record that does not exist and another account's,
 * a document of no property, the external id of another property, an unknown route, a create without its trailing
 * slash, a wrong method.
 */
export async function profileSteps(ctx: RunContext, names: RunNames): Promise<void> {
  if (ctx.has("fresh")) {
    await ctx.call("list the agents of the fresh account, which has none", "listAgentCards", `${API}/agent_cards`, {
      as: "fresh",
      expect: "success",
      point: "encoding.empty_agent_list",
    });
  }
  await agentNeverSet(ctx, names);
  const body = { street: `3 Profile Run Way ${names.tag}`, city: "Austin", state: "TX", zip: "78701" };
  const created = record(
    await ctx.call("create a property with the required fields only, to profile", "createProperty", `${API}/property`, {
      body,
      expect: "success",
    }),
  );
  const nid = typeof created?.nid === "string" ? created.nid : undefined;
  if (nid) {
    const property = `${API}/property/${nid}`;
    const retrieved = record(
      await ctx.call(
        "retrieve the property created with the required fields only, to profile",
        "retrieveProperty",
        property,
        {
          expect: "success",
          point: "unset.property",
          unsetFields: [...NEVER_SET, ...neverSetDefaultFields(ctx.contract.document)],
        },
      ),
    );
    // The run has made properties by now, so the user's list has at least two to tell its order by.
    if (typeof retrieved?.uid === "string")
      await ctx.call(
        "list the user's properties, to see their order",
        "listUserProperties",
        `${API}/properties/${retrieved.uid}`,
        { expect: "success", point: "order.property_list" },
      );
    if (retrieved) await derivedOnEdit(ctx, names, property, retrieved);
    await externalIdInUse(ctx, names, property, body);
    await ctx.call("retrieve the property without a content-type header", "retrieveProperty", property, {
      expect: "any",
      contentType: null,
      point: "error.content_type.missing",
    });
    if (ctx.has("other"))
      await ctx.call("retrieve the property as another account", "retrieveProperty", property, {
        as: "other",
        expect: "any",
        point: "error.foreign_record",
      });
    await ctx.probe("delete the property, a method its path does not take", "DELETE", property, {
      point: "error.method_not_allowed",
    });
    await ctx.call("attach a document to a property that does not exist", "createDocument", `${API}/document/`, {
      body: {
        title: `Profile ${names.tag}`,
        property_reference: Number(UNKNOWN_NID),
        file_url: `https://files.contract-run.example/${names.tag}/none.pdf`,
      },
      expect: "any",
      point: "error.unknown_property_reference",
    });
  }
  await ctx.call("create a property with its body sent as text/plain", "createProperty", `${API}/property`, {
    body,
    expect: "any",
    contentType: "text/plain",
    point: "error.content_type.wrong",
  });
  await ctx.call("retrieve a property that does not exist", "retrieveProperty", `${API}/property/${UNKNOWN_NID}`, {
    expect: "any",
    point: "error.not_found",
  });
  await ctx.probe("fetch a path the service does not have", "GET", `${API}/no-such-resource`, {
    point: "error.no_route",
  });
  await ctx.probe("create an agent without the trailing slash", "POST", `${API}/agent_card`, {
    body: {
      agent_first_name: "Slash",
      agent_last_name: names.tag,
      email: `slash-${names.tag}@contract-run.example`.toLowerCase(),
    },
    point: "error.no_route",
  });
}
