import { brokenAnswerFacts } from "../runner/answer-facts.ts";
import type { Basis, UsageInteraction } from "./usage-document.ts";

/** An answer as the client would notice it: its status, media type (without parameters) and parsed body. */
export interface NoticedAnswer {
  status: number;
  mediaType: string | null;
  body: unknown;
}

/** One thing the client would notice differently, and what it rests on. */
export interface Difference {
  basis: Basis;
  /** What differs, for the message: `the status`, `the field /title`. */
  what: string;
  expected: string;
  actual: string;
}

/** The two named error values of section 7: a refusal that carried one must carry it again (a fact). */
export const ERROR_VALUES = ["Not Enough Agent Seats", "Agent Already Exists"] as const;

const FACT: Basis = { tier: "fact" };

/**
 * What a client would notice between the answer it got from the mock and another (the service's): the status,
 * the media type, every field it got (present, of the same JSON type), a list's order by the ids it knows
 * (`sameId` says whether a service id is the one of a mock id), the named error value of section 7, and the facts
 * of section 2 the service's answer breaks on its own (runner/answer-facts.ts). A value
 * where the document fixes only the type (a title, a nid) is no difference. Each difference carries the basis
 * the usage gave that part of the answer.
 */
export function judgeAnswer(
  interaction: UsageInteraction,
  actual: NoticedAnswer,
  sameId?: (mockId: string) => string | undefined,
): Difference[] {
  const recorded = interaction.response;
  const { basis } = interaction;
  const differences: Difference[] = [];
  if (actual.status !== recorded.status) {
    differences.push({
      basis: basis.status,
      what: "the status",
      expected: String(recorded.status),
      actual: String(actual.status),
    });
  }
  if (!sameMediaType(recorded.mediaType, actual.mediaType)) {
    differences.push({
      basis: basis.mediaType,
      what: "the media type",
      expected: recorded.mediaType ?? "none",
      actual: actual.mediaType ?? "none",
    });
  }
  const named = ERROR_VALUES.find((value) => JSON.stringify(recorded.body ?? "").includes(value));
  if (named && !JSON.stringify(actual.body ?? "").includes(named)) {
    differences.push({
      basis: FACT,
      what: `the error value of section 7 (${named})`,
      expected: `an answer naming ${named}`,
      actual: "an answer that does not name it",
    });
  }
  // Another status is another answer: its fields are not the ones the client read.
  if (actual.status !== recorded.status) return differences;
  // The facts of section 2 the service's answer shows on its own (numbers as numeric strings, links by weight, a
  // delete's [true]): a client may rest on any of them, whatever the mock answered.
  if (actual.status === 200) {
    for (const broken of brokenAnswerFacts(interaction.operation, actual.body)) {
      differences.push({
        basis: FACT,
        what: `the field ${broken.pointer || "(the body)"} (section ${broken.section})`,
        expected: broken.expected,
        actual: broken.actual,
      });
    }
  }
  walk(recorded.body, actual.body, "", (pointer, expected, got, dataOnly) => {
    const at = basisAt(basis.fields, pointer, basis.status);
    // Where the document fixes the answer, what differs only by a record's data is no difference: a field set on
    // one side and null on the other (section 2.1 reads absent values as null), a map keyed by ids (tours, videos,
    // floorplans) with other entries or none. The contract's own schema check holds the service to each type.
    if (dataOnly && at.tier === "fact") return;
    differences.push({ basis: at, what: `the field ${pointer || "(the body)"}`, expected, actual: got });
  });
  const order = listOrder(recorded.body, actual.body, sameId);
  if (order) differences.push({ basis: orderBasis(basis), what: "the order of the list", ...order });
  return differences;
}

/**
 * What a list's order rests on. The document shows no order for any list ("ordering … not shown"), so the order
 * is never a fact, even where the body's own basis (the root field `""`) is one: it is the mock's choice, or a
 * service profile's when the recorder said so.
 */
export function orderBasis(basis: UsageInteraction["basis"]): Basis {
  const root = basis.fields[""];
  return root && root.tier !== "fact" ? root : { tier: "assumption", ids: [], pointers: [] };
}

/** The JSON type of a value as a client tells it: an integer and a number are both numbers. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * Every field of the body the client got, held to the other body: present, of the same JSON type. Items of a
 * list are compared index by index while the other list has them: how many records an account holds is its state,
 * not the contract.
 */
function walk(
  expected: unknown,
  actual: unknown,
  pointer: string,
  differ: (pointer: string, expected: string, actual: string, dataOnly: boolean) => void,
): void {
  if (expected === undefined) return;
  if (actual === undefined) {
    differ(pointer, `present (${jsonType(expected)})`, "absent", /\/[0-9]+$/.test(pointer));
    return;
  }
  if (jsonType(expected) !== jsonType(actual)) {
    differ(
      pointer,
      jsonType(expected),
      jsonType(actual) === "null" ? "null" : `${jsonType(actual)} ${shown(actual)}`,
      expected === null ||
        actual === null ||
        (isEmptyCollection(expected) && isCollection(actual)) ||
        (isEmptyCollection(actual) && isCollection(expected)),
    );
    return;
  }
  if (Array.isArray(expected)) {
    const other = actual as unknown[];
    expected.forEach((item, index) => {
      if (index < other.length) walk(item, other[index], `${pointer}/${index}`, differ);
    });
    return;
  }
  if (expected !== null && typeof expected === "object") {
    const other = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(expected))
      walk(
        value,
        Object.hasOwn(other, key) ? other[key] : undefined,
        `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`,
        differ,
      );
  }
}

/**
 * A list whose entries the client knew (their nids map to the service's) in another order on the service: the
 * relative order of the entries both lists hold.
 */
function listOrder(
  expected: unknown,
  actual: unknown,
  sameId: ((mockId: string) => string | undefined) | undefined,
): { expected: string; actual: string } | undefined {
  if (!sameId || !Array.isArray(expected) || !Array.isArray(actual)) return undefined;
  const actualIds = actual.map((entry) => nidOf(entry));
  const known = expected
    .map((entry) => nidOf(entry))
    .flatMap((mockId) => {
      const id = mockId === undefined ? undefined : sameId(mockId);
      return id !== undefined && actualIds.includes(id) ? [id] : [];
    });
  if (known.length < 2) return undefined;
  const seen = actualIds.filter((id): id is string => id !== undefined && known.includes(id));
  return seen.join(",") === known.join(",")
    ? undefined
    : { expected: `entries in the order ${known.join(", ")}`, actual: `in the order ${seen.join(", ")}` };
}

function isCollection(value: unknown): boolean {
  return value !== null && typeof value === "object";
}

function isEmptyCollection(value: unknown): boolean {
  return isCollection(value) && Object.keys(value as object).length === 0;
}

function nidOf(entry: unknown): string | undefined {
  const nid = entry !== null && typeof entry === "object" ? (entry as { nid?: unknown }).nid : undefined;
  return typeof nid === "string" || typeof nid === "number" ? String(nid) : undefined;
}

/**
 * The basis of a pointer: its own, else its nearest parent's, else (a field of an answer not described) the status's.
 */
function basisAt(fields: Record<string, Basis>, pointer: string, fallback: Basis): Basis {
  for (let at = pointer; ; at = at.slice(0, at.lastIndexOf("/"))) {
    const own = fields[at] ?? fields[at.replace(/\/[0-9]+(?=\/|$)/g, "/*")];
    if (own) return own;
    if (at === "") return fallback;
  }
}

function sameMediaType(a: string | null, b: string | null): boolean {
  return (a ?? "").split(";")[0]!.trim().toLowerCase() === (b ?? "").split(";")[0]!.trim().toLowerCase();
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
