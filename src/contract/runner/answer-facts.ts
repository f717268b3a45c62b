/**
 * Facts of section 2 (and 4.2, 4.3) that one successful answer shows on its own, with no knowledge of what the
 * run sent: numbers as numeric strings, social links ordered by weight in either direction, a delete's list
 * holding `true`, the agent list keyed by its entries' nids. The scenario's steps check the same rules with what
 * they sent besides (agent-steps.ts uses {@link linkWeightOrder}); a consumer's replay holds every answer a
 * consumer test got to them (usage/judge-answer.ts), as `consumer_fact`.
 */
import type { OperationId } from "../operation-id.ts";

/** One fact an answer breaks: the place in its body, the section, and what is wrong. */
export interface BrokenFact {
  pointer: string;
  section: string;
  expected: string;
  actual: string;
}

const NUMERIC = /^-?[0-9]+(\.[0-9]+)?$/;
const ID = /^[0-9]+$/;
/** Fields of 2.1 the table gives as numeric strings (or numeric ids), each null when absent. */
const PROPERTY_NUMBERS = [
  "list_price",
  "square_feet",
  "stories",
  "bedrooms",
  "baths",
  "half_baths",
  "year_built",
] as const;
const PROPERTY_IDS = ["nid", "uid", "main_image", "edit_access", "show_on_property", "logo"] as const;
const asObject = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const shown = (value: unknown) => JSON.stringify(value) ?? "undefined";

/**
 * How social links are ordered by their weights (section 2.2, "orders the links", in no stated direction):
 * `ascending`, `descending`, both (one link, or equal weights), or neither.
 */
export function linkWeightOrder(links: readonly unknown[]): {
  ascending: boolean;
  descending: boolean;
  weights: number[];
} {
  const weights = links.map((link) => Number(asObject(link)?.weight));
  return {
    ascending: weights.every((weight, index) => index === 0 || weights[index - 1]! <= weight),
    descending: weights.every((weight, index) => index === 0 || weights[index - 1]! >= weight),
    weights,
  };
}

/**
 * The documented facts a successful answer of an operation breaks on its own; none for an operation without such rules.
 */
export function brokenAnswerFacts(operationId: OperationId, body: unknown): BrokenFact[] {
  const broken: BrokenFact[] = [];
  switch (operationId) {
    case "retrieveProperty":
    case "retrievePropertyByExternalId": {
      const property = asObject(body);
      if (!property) return broken;
      for (const field of PROPERTY_NUMBERS) {
        const value = property[field];
        if (value !== null && value !== undefined && !(typeof value === "string" && NUMERIC.test(value))) {
          broken.push({
            pointer: `/${field}`,
            section: "2.1",
            expected: "a numeric string (or null when absent)",
            actual: shown(value),
          });
        }
      }
      for (const field of PROPERTY_IDS) {
        const value = property[field];
        if (value !== null && value !== undefined && !(typeof value === "string" && ID.test(value))) {
          broken.push({ pointer: `/${field}`, section: "2.1", expected: "a numeric id string", actual: shown(value) });
        }
      }
      return broken;
    }
    case "retrieveAgentCard": {
      const links = asObject(body)?.social_media_links;
      if (!Array.isArray(links)) return broken;
      links.forEach((link, index) => {
        const weight = asObject(link)?.weight;
        if (!(typeof weight === "string" && /^-?[0-9]+$/.test(weight)))
          broken.push({
            pointer: `/social_media_links/${index}/weight`,
            section: "2.2",
            expected: "an integer-like string",
            actual: shown(weight),
          });
      });
      const order = linkWeightOrder(links);
      if (!order.ascending && !order.descending) {
        broken.push({
          pointer: "/social_media_links",
          section: "2.2",
          expected: "links ordered by weight (either direction)",
          actual: `weights in the order ${order.weights.join(", ")}`,
        });
      }
      return broken;
    }
    case "deleteAgentCard":
    case "deleteDocument":
      if (!Array.isArray(body) || !body.includes(true))
        broken.push({
          pointer: "",
          section: operationId === "deleteAgentCard" ? "4.2" : "4.3",
          expected: "a list containing the boolean true",
          actual: shown(body),
        });
      return broken;
    case "listAgentCards": {
      const list = asObject(body);
      if (!list) return broken;
      for (const [key, entry] of Object.entries(list)) {
        const nid = asObject(entry)?.nid;
        if (nid !== undefined && String(nid) !== key)
          broken.push({
            pointer: `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}/nid`,
            section: "4.2",
            expected: `the nid it is keyed by (${key})`,
            actual: shown(nid),
          });
      }
      return broken;
    }
    default:
      return broken;
  }
}
