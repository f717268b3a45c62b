import type { ServiceAnswer } from "./answers-document.ts";
import type { Basis, UsageInteraction } from "./usage-document.ts";

/** Where the service's answer to an interaction differs from the mock's, in what a client's code can trip on. */
export interface AnswerDifference {
  /** The interaction's place in its test, and its operation. */
  interaction: number;
  operation: string;
  /** `status`, `mediaType`, or a JSON pointer into the body. */
  at: string;
  kind: "status" | "media-type" | "null" | "missing" | "type";
  /** `the service answered null at /country where the mock answered "US" (retrieveProperty; assumption A20)`. */
  text: string;
  /** What the mock had answered there. */
  mockValue?: unknown;
}

/** Fields compared per answer at most: a list of thousands of items need not be walked whole to explain a test. */
const MAX_FIELDS = 5_000;

/**
 * What a client could trip on where the service answered otherwise than the mock (the usage's recorded answer):
 * its status, its media type, and each field the mock gave that the service answered as null, left out, or as
 * another JSON type. Values of the same type that differ (ids, titles) are not listed: every replay has those.
 */
export function answerDifferences(interactions: UsageInteraction[], answers: ServiceAnswer[]): AnswerDifference[] {
  const found: AnswerDifference[] = [];
  interactions.forEach((interaction, index) => {
    const answer = answers[index];
    if (!answer || "notSent" in answer) return;
    const where = (basis: Basis | undefined) => `${interaction.operation}${basisText(basis)}`;
    const add = (at: string, kind: AnswerDifference["kind"], text: string, mockValue?: unknown): void => {
      found.push({
        interaction: index,
        operation: interaction.operation,
        at,
        kind,
        text,
        ...(mockValue !== undefined ? { mockValue } : {}),
      });
    };
    if (answer.status !== interaction.response.status)
      add(
        "status",
        "status",
        `the service answered ${answer.status} where the mock answered ${interaction.response.status} ` +
          `(${where(interaction.basis.status)})`,
      );
    if (answer.mediaType !== interaction.response.mediaType)
      add(
        "mediaType",
        "media-type",
        `the service answered ${answer.mediaType ?? "no content-type"} where the mock answered ` +
          `${interaction.response.mediaType ?? "none"} (${where(interaction.basis.mediaType)})`,
      );
    if (answer.status !== interaction.response.status) return;
    let fields = 0;
    const walk = (mock: unknown, service: unknown, pointer: string, present: boolean): void => {
      if (++fields > MAX_FIELDS || mock === null || mock === undefined) return;
      const basis = interaction.basis.fields[pointer];
      if (!present)
        return add(
          pointer,
          "missing",
          `the service left out ${pointer || "the body"} where the mock answered ${shown(mock)} (${where(basis)})`,
          mock,
        );
      if (service === null)
        return add(
          pointer,
          "null",
          `the service answered null at ${pointer || "the body"} where the mock answered ${shown(mock)} ` +
            `(${where(basis)})`,
          mock,
        );
      if (typeOf(mock) !== typeOf(service))
        return add(
          pointer,
          "type",
          `the service answered ${typeOf(service)} ${shown(service)} at ${pointer || "the body"} where the ` +
            `mock answered ${typeOf(mock)} ${shown(mock)} (${where(basis)})`,
        );
      if (Array.isArray(mock)) {
        const list = service as unknown[];
        mock.forEach((item, at) => walk(item, list[at], `${pointer}/${at}`, at < list.length));
      } else if (typeof mock === "object") {
        const object = service as Record<string, unknown>;
        for (const [key, value] of Object.entries(mock as Record<string, unknown>))
          walk(
            value,
            object[key],
            `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`,
            Object.hasOwn(object, key),
          );
      }
    };
    walk(interaction.response.body, answer.body, "", true);
  });
  return found;
}

/** The differences most likely behind a test's error first: null ones for an error about null, and so on. */
export function likelyCauses(differences: AnswerDifference[], error: string): AnswerDifference[] {
  // "Cannot read properties of null (reading 'toUpperCase')": a value the mock gave that has that member.
  const member = /\(reading '([^']+)'\)/.exec(error)?.[1];
  const rank = (difference: AnswerDifference): number => {
    const absent =
      (/\bnull\b/.test(error) && difference.kind === "null") ||
      (/\bundefined\b/.test(error) && difference.kind === "missing");
    if (absent) {
      const mock = difference.mockValue;
      const has = member !== undefined && mock !== null && mock !== undefined && member in Object(mock);
      // An empty string, a zero or false is seldom what a client's code reads a member of.
      return has ? (mock === "" || mock === 0 || mock === false ? 1 : 0) : 2;
    }
    if (difference.kind === "status") return 3;
    return difference.kind === "null" || difference.kind === "missing" || difference.kind === "type" ? 4 : 5;
  };
  return [...differences].sort((a, b) => rank(a) - rank(b));
}

function basisText(basis: Basis | undefined): string {
  if (!basis || basis.tier === "fact") return "";
  return basis.tier === "assumption" ? `; assumption ${basis.ids.join(", ")}` : `; profile ${basis.point}`;
}

function typeOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
