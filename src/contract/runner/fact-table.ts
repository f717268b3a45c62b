/**
 * Every fact of the contract and the step of the scenario that puts it to the test: each
 * place of spec/openapi.yaml that carries an `x-section` (an operation, a parameter, a schema), and the facts
 * of the interface document's prose that no schema states. test/contract/fact-table.test.ts keeps it true: a
 * place with `x-section` missing here, or an entry whose step does not evaluate its check in a run against a
 * conforming service, fails the suite. A fact no operation can reach says why instead.
 */
import type { CheckName } from "./checks.ts";

/** A check evaluated at a step: `step` is the step's name or the start of it (steps that repeat per value). */
export interface FactCheck {
  check: CheckName;
  step: string;
}

/** How a fact is put to the test: by these checks, or not at all, for the reason given. */
export type FactCoverage = { checkedBy: readonly FactCheck[] } | { unreachable: string };

/** One fact of the document's prose. */
export type ProseFact = { fact: string; section: string } & FactCoverage;

const schema = (step: string): FactCheck => ({ check: "response_schema_conformance", step });
const success = (step: string): FactCheck => ({ check: "status_code_conformance", step });
const nearMiss = (step: string): FactCheck => ({ check: "negative_data_rejection", step });

const NO_TOURS =
  "No operation of section 4 adds a tour or a video to a property, so a run never sees one: the contents of " +
  "virtual_tours and property_videos entries are checked only by the schema, on a service that has them.";

/** Each place of the spec that carries `x-section`, by JSON pointer, and how it is checked. */
export const SPEC_FACTS: Readonly<Record<string, FactCoverage>> = {
  "#/paths/~1api~1v1~1object~1property~1{nid}/get": {
    checkedBy: [success("retrieve the property"), schema("retrieve the property")],
  },
  "#/paths/~1api~1v1~1object~1property~1{nid}/put": {
    checkedBy: [success("edit every field of the property"), schema("edit every field of the property")],
  },
  "#/paths/~1api~1v1~1object~1external-property~1{external-id}/get": {
    checkedBy: [
      success("retrieve the property by its external id"),
      schema("retrieve the property by its external id"),
    ],
  },
  "#/paths/~1api~1v1~1object~1property/post": {
    checkedBy: [
      success("create a property with every documented field"),
      schema("create a property with every documented field"),
    ],
  },
  "#/paths/~1api~1v1~1object~1properties~1{uid}/get": {
    checkedBy: [
      success("list the user's properties after the edits"),
      schema("list the user's properties after the edits"),
    ],
  },
  "#/paths/~1api~1v1~1object~1agent_card~1{nid}/post": {
    checkedBy: [success("retrieve the agent"), schema("retrieve the agent")],
  },
  "#/paths/~1api~1v1~1object~1agent_card~1{nid}/put": {
    checkedBy: [success("update every field of the agent"), schema("update every field of the agent")],
  },
  "#/paths/~1api~1v1~1object~1agent_card~1{nid}/delete": {
    checkedBy: [success("delete the agent"), schema("delete the agent")],
  },
  "#/paths/~1api~1v1~1object~1agent_card~1/post": {
    checkedBy: [success("create an agent with every field"), schema("create an agent with every field")],
  },
  "#/paths/~1api~1v1~1object~1agent_cards/get": {
    checkedBy: [success("list the agents with the new one"), schema("list the agents with the new one")],
  },
  "#/paths/~1api~1v1~1object~1document~1/post": {
    checkedBy: [success("attach a floorplan to the property"), schema("attach a floorplan to the property")],
  },
  "#/paths/~1api~1v1~1object~1document~1{nid}/get": {
    checkedBy: [success("retrieve the floorplan"), schema("retrieve the floorplan")],
  },
  "#/paths/~1api~1v1~1object~1document~1{nid}/put": {
    checkedBy: [success("update every field of the floorplan"), schema("update every field of the floorplan")],
  },
  "#/paths/~1api~1v1~1object~1document~1{nid}/delete": {
    checkedBy: [success("delete the floorplan"), schema("delete the floorplan")],
  },
  "#/paths/~1api~1v1~1object~1template_base/get": {
    checkedBy: [success("fetch the template catalogue"), schema("fetch the template catalogue")],
  },
  "#/components/parameters/PropertyNid": {
    checkedBy: [nearMiss("retrieve a property by a nid that is not an integer")],
  },
  "#/components/schemas/NumericString": {
    checkedBy: [schema("retrieve the property"), { check: "create_round_trip", step: "retrieve the property" }],
  },
  "#/components/schemas/IdString": { checkedBy: [schema("retrieve the property"), schema("retrieve the agent")] },
  "#/components/schemas/NullWhenAbsent": {
    checkedBy: [{ check: "absent_is_null", step: "retrieve the property created with the required fields only" }],
  },
  "#/components/schemas/HttpUrl": {
    checkedBy: [schema("create a property with every documented field"), schema("retrieve the agent")],
  },
  "#/components/schemas/PropertyType": {
    checkedBy: [
      nearMiss("create a property with property_type single family"),
      nearMiss("create a property with property_type SingleFamily"),
    ],
  },
  "#/components/schemas/GarageType": {
    checkedBy: [
      nearMiss("create a property with garage attached"),
      nearMiss("create a property with garage as a count"),
    ],
  },
  "#/components/schemas/CreatableTemplate": {
    checkedBy: [
      nearMiss("create a property with the syd template"),
      nearMiss("create a property with the intra template"),
      nearMiss("create a property with template MAK"),
    ],
  },
  "#/components/schemas/TemplateMachineName": {
    checkedBy: [
      schema("fetch the template catalogue"),
      { check: "template_catalogue", step: "fetch the template catalogue" },
    ],
  },
  "#/components/schemas/AccessLevel": {
    checkedBy: [
      schema("fetch the template catalogue"),
      { check: "template_catalogue", step: "fetch the template catalogue" },
    ],
  },
  "#/components/schemas/Property": {
    checkedBy: [schema("retrieve the property"), schema("retrieve the property created with the required fields only")],
  },
  "#/components/schemas/VirtualTour": { unreachable: NO_TOURS },
  "#/components/schemas/PropertyVideo": { unreachable: NO_TOURS },
  "#/components/schemas/Floorplan": {
    checkedBy: [
      schema("see the floorplan on its property"),
      { check: "floorplan_on_property", step: "see the floorplan on its property" },
    ],
  },
  "#/components/schemas/PropertyListItem": {
    checkedBy: [
      schema("list the user's properties after the edits"),
      { check: "list_consistency", step: "list the user's properties after the edits" },
    ],
  },
  "#/components/schemas/PropertyCreate": {
    checkedBy: [nearMiss("create a property with no street"), nearMiss("create a property with no zip")],
  },
  "#/components/schemas/PropertyEdit": {
    checkedBy: [
      nearMiss("edit the property's state to 1 character"),
      { check: "edit_visible", step: "retrieve the edited property" },
    ],
  },
  "#/components/schemas/PropertyWriteResult": {
    checkedBy: [
      schema("create a property with every documented field"),
      { check: "autologin_uri", step: "create a property with every documented field" },
      { check: "autologin_uri", step: "edit every field of the property" },
    ],
  },
  "#/components/schemas/SocialMediaLink": {
    checkedBy: [schema("retrieve the agent"), { check: "create_round_trip", step: "retrieve the agent" }],
  },
  "#/components/schemas/AgentCard": { checkedBy: [schema("retrieve the agent"), schema("retrieve the updated agent")] },
  "#/components/schemas/AgentCard/properties/social_media_links": { checkedBy: [schema("retrieve the agent")] },
  "#/components/schemas/AgentCard/properties/agency_profile": { checkedBy: [schema("retrieve the agent")] },
  "#/components/schemas/AgentText": {
    checkedBy: [schema("retrieve the agent"), schema("retrieve the agent created without a name")],
  },
  "#/components/schemas/AgentUrl": { checkedBy: [schema("retrieve the agent")] },
  "#/components/schemas/AgentCardList": {
    checkedBy: [
      schema("list the agents with the new one"),
      { check: "list_consistency", step: "list the agents holding two of the run's own" },
    ],
  },
  "#/components/schemas/AgentCardListEntry": {
    checkedBy: [
      schema("list the agents with the new one"),
      { check: "list_consistency", step: "list the agents with the new one" },
    ],
  },
  "#/components/schemas/Document": {
    checkedBy: [schema("retrieve the floorplan"), { check: "create_round_trip", step: "retrieve the floorplan" }],
  },
  "#/components/schemas/TemplateCatalogue": { checkedBy: [schema("fetch the template catalogue")] },
  "#/components/schemas/TemplateEntry": { checkedBy: [schema("fetch the template catalogue")] },
  "#/components/schemas/StringNidResult": {
    checkedBy: [
      schema("create an agent with every field"),
      { check: "edit_visible", step: "update every field of the agent" },
    ],
  },
  "#/components/schemas/IntegerNidResult": { checkedBy: [schema("attach a floorplan to the property")] },
  "#/components/schemas/DeleteResult": { checkedBy: [schema("delete the agent"), schema("delete the floorplan")] },
};

/** The facts of the interface document's prose that no schema states, and the steps that check them. */
export const PROSE_FACTS: readonly ProseFact[] = [
  {
    fact: "Bodies are JSON.",
    section: "introduction",
    checkedBy: [{ check: "content_type_conformance", step: "retrieve the property" }],
  },
  {
    fact: "Every endpoint lives under /api/v1/; the success status of every endpoint is 200.",
    section: "4",
    checkedBy: [success("fetch the template catalogue"), success("retrieve the property")],
  },
  {
    fact:
      "Creating or editing a property returns its nid and an auto-login uri of the form " +
      "{base_url}/<autologin_path>/<ACCESS_TOKEN>.",
    section: "4.1",
    checkedBy: [
      { check: "autologin_uri", step: "create a property with every documented field" },
      { check: "autologin_uri", step: "edit every field of the property" },
    ],
  },
  {
    fact: "All scalar values, numbers included, come back as JSON strings.",
    section: "2.1",
    checkedBy: [{ check: "create_round_trip", step: "retrieve the property" }],
  },
  {
    fact: "Absent values come back as null.",
    section: "2.1",
    checkedBy: [{ check: "absent_is_null", step: "retrieve the property created with the required fields only" }],
  },
  {
    fact: "premise may be an empty string.",
    section: "2.1",
    checkedBy: [{ check: "edit_visible", step: "retrieve the property after editing one field" }],
  },
  {
    fact: "lot_size may contain a thousands separator; description may contain HTML markup.",
    section: "2.1",
    checkedBy: [{ check: "create_round_trip", step: "retrieve the property" }],
  },
  {
    fact: "garage comes back as a count-like numeric string, for every garage kind a create accepts.",
    section: "2.1",
    checkedBy: [{ check: "documented_representation", step: "retrieve the property created with garage" }],
  },
  {
    fact: "property_type comes back in a compact form without spaces, for every property type a create accepts.",
    section: "2.1",
    checkedBy: [{ check: "documented_representation", step: "retrieve the property created with garage" }],
  },
  {
    fact: "template comes back as the template's machine name.",
    section: "2.1",
    checkedBy: [
      { check: "documented_representation", step: "retrieve the property created with garage" },
      { check: "documented_representation", step: "retrieve the property with garage" },
    ],
  },
  {
    fact: "virtual_tours is an empty array when there are none.",
    section: "2.1",
    checkedBy: [{ check: "documented_representation", step: "retrieve the property" }],
  },
  {
    fact: "The entries of virtual_tours and property_videos: nid (integer), title, vtour_url / video_url.",
    section: "2.1",
    unreachable: NO_TOURS,
  },
  {
    fact: "A property's floorplans are its floorplan documents, keyed by id, each with nid, title and floorplan_url.",
    section: "2.1",
    checkedBy: [
      { check: "floorplan_on_property", step: "see the floorplan on its property" },
      { check: "floorplan_on_property", step: "see the document that is not a floorplan kept out of the floorplans" },
    ],
  },
  {
    fact: "A list item of endpoint 5 carries the property's nid, published flag, title and external_id.",
    section: "2.1",
    checkedBy: [{ check: "list_consistency", step: "list the user's properties after the edits" }],
  },
  {
    fact: "state is a 2-character abbreviation.",
    section: "4.1",
    checkedBy: [
      nearMiss("create a property with a 1-character state"),
      nearMiss("create a property with a 3-character state"),
      nearMiss("edit the property's state to 3 characters"),
    ],
  },
  {
    fact: "street, city, state and zip are required on create.",
    section: "4.1",
    checkedBy: [
      nearMiss("create a property with no street"),
      nearMiss("create a property with no city"),
      nearMiss("create a property with no state"),
      nearMiss("create a property with no zip"),
    ],
  },
  {
    fact: "An edit takes property field names with string values, and what it changes shows on retrieve.",
    section: "4.1",
    checkedBy: [{ check: "edit_visible", step: "retrieve the edited property" }],
  },
  {
    fact: "Endpoint 2 finds the property by the external id given to it: the same object as endpoint 1.",
    section: "4.1",
    checkedBy: [{ check: "external_id_lookup", step: "retrieve the property by its external id" }],
  },
  {
    fact: "Endpoint 5 lists the properties of a user.",
    section: "4.1",
    checkedBy: [{ check: "ensure_resource_availability", step: "list the user's properties after the edits" }],
  },
  {
    fact: "Endpoints 1 to 5 and 15 require API-KEY and TOKEN.",
    section: "5",
    checkedBy: [
      { check: "ignored_auth", step: "retrieveProperty without credentials" },
      { check: "ignored_auth", step: "retrieveTemplateCatalogue without API-KEY" },
      { check: "ignored_auth", step: "editProperty with a TOKEN of no account" },
    ],
  },
  {
    fact: "An agent's name is its full display name.",
    section: "2.2",
    checkedBy: [{ check: "documented_representation", step: "retrieve the agent created without a name" }],
  },
  {
    fact:
      "An agent's fields come back as sent; social links with their weights (integer-like, possibly negative), " +
      "ordered by weight.",
    section: "2.2",
    checkedBy: [
      { check: "create_round_trip", step: "retrieve the agent" },
      { check: "edit_visible", step: "retrieve the updated agent" },
    ],
  },
  {
    fact: "An agent email is unique among agents; a duplicate create is refused with Agent Already Exists.",
    section: "7",
    checkedBy: [
      { check: "duplicate_agent_rejected", step: "create a second agent with the same email" },
      { check: "duplicate_agent_rejected", step: "update the second agent to the first agent's email" },
    ],
  },
  {
    fact: "The agent list is a map keyed by agent nid, each value with email and nid.",
    section: "4.2",
    checkedBy: [{ check: "list_consistency", step: "list the agents holding two of the run's own" }],
  },
  {
    fact: "A delete answers a list containing the boolean true; the record is gone afterwards.",
    section: "4.2",
    checkedBy: [
      schema("delete the agent"),
      { check: "use_after_free", step: "retrieve the deleted agent" },
      { check: "use_after_free", step: "retrieve the deleted floorplan" },
    ],
  },
  {
    fact: "A document's fields come back as sent (2.3), and an update shows.",
    section: "2.3",
    checkedBy: [
      { check: "create_round_trip", step: "retrieve the floorplan" },
      { check: "edit_visible", step: "retrieve the updated floorplan" },
    ],
  },
  {
    fact: "The catalogue holds the 23 machine names, each with its access level; create offers all but syd and intra.",
    section: "2.4",
    checkedBy: [
      { check: "template_catalogue", step: "fetch the template catalogue" },
      nearMiss("create a property with the syd template"),
    ],
  },
  {
    fact: "Agent seats per account are limited; past the limit a create is refused with Not Enough Agent Seats.",
    section: "8",
    checkedBy: [{ check: "agent_seat_limit", step: "create agent" }],
  },
  {
    fact: "Where the seats are full and the email is taken, either named error is right (no precedence is given).",
    section: "7",
    checkedBy: [
      { check: "agent_seat_limit", step: "create an agent with a taken email on the full account" },
      { check: "duplicate_agent_rejected", step: "create an agent with the first agent's email on the fresh account" },
    ],
  },
];
