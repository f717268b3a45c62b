import type { Contract } from "../../contract/build-contract.ts";
import { escapeToken, resolvePointer } from "../../spec/json-pointer.ts";
import { describePlace, listAssumptions } from "../../spec/list-assumptions.ts";

/** One documented (or seen) answer of an operation: its status, how often the session got it, what it rests on. */
export interface CoveredResponse {
  status: string;
  documented: boolean;
  count: number;
  /**
   * The `x-assumption` markers of the spec on this response and the schemas it refers to, by their names in
   * docs/assumptions.md: `not-found-status`.
   */
  assumptions: string[];
}

/** One operation of the contract and the answers the session got from it. */
export interface CoveredOperation {
  operationId: string;
  method: string;
  path: string;
  count: number;
  responses: CoveredResponse[];
}

/** What `GET /__admin/coverage` answers. */
export interface CoverageReport {
  operations: CoveredOperation[];
  totals: { operations: number; exercised: number; responses: number; responsesExercised: number };
  /**
   * The assumptions the answers sent rested on: each marker of the spec on a response the mock sent. The place
   * where a finer basis (a usage recording's fact or assumption per answer) will be put beside it.
   */
  assumptions: Array<{ id: string; place: string; text: string; count: number }>;
}

/** The most statuses outside the documented ones an operation tallies (a status is 100 to 599: bounded anyway). */
const MAX_UNDOCUMENTED = 50;

/**
 * Which operations of the contract, and which of their documented responses, the session exercised: a tally by
 * operation and status, fed by the request journal as each call is over, bounded by the contract's size. It
 * outlives a reset (a test suite resets between tests; the coverage is the whole session's) and is emptied by
 * `DELETE /__admin/coverage`. The assumptions of each response are read from the spec once, at the first report:
 * a start of the mock need not walk the whole document for a page few sessions open.
 */
export class Coverage {
  readonly #document: Contract["document"];
  readonly #operations: CountedOperation[];
  readonly #counts = new Map<string, Map<string, number>>();
  #assumptions?: Assumptions;

  constructor(contract: Pick<Contract, "operations" | "document">) {
    this.#document = contract.document;
    this.#operations = contract.operations.map((operation) => ({
      id: operation.id,
      method: operation.method,
      path: operation.pathTemplate,
      statuses: [...operation.responses.keys()],
    }));
  }

  /** Counts one answer; a call that matched no operation (404, 405), or was not answered, counts nowhere. */
  record(operationId: string | undefined, status: number | null): void {
    if (operationId === undefined || status === null) return;
    let counts = this.#counts.get(operationId);
    if (!counts) {
      if (!this.#operations.some((operation) => operation.id === operationId)) return;
      counts = new Map();
      this.#counts.set(operationId, counts);
    }
    const key = String(status);
    const count = counts.get(key);
    if (count === undefined && counts.size >= MAX_UNDOCUMENTED) return;
    counts.set(key, (count ?? 0) + 1);
  }

  /** Forgets every answer counted. */
  clear(): void {
    this.#counts.clear();
  }

  report(): CoverageReport {
    const { byResponse, text } = (this.#assumptions ??= readAssumptions(this.#document, this.#operations));
    const used = new Map<string, number>();
    let exercised = 0;
    let responses = 0;
    let responsesExercised = 0;
    const operations = this.#operations.map((operation): CoveredOperation => {
      const counts = this.#counts.get(operation.id) ?? new Map<string, number>();
      const listed: CoveredResponse[] = operation.statuses.map((status) => {
        const count = counts.get(status) ?? 0;
        const assumptions = byResponse.get(operation.id)?.get(status) ?? [];
        responses++;
        if (count > 0) {
          responsesExercised++;
          for (const id of assumptions) used.set(id, (used.get(id) ?? 0) + count);
        }
        return { status, documented: true, count, assumptions };
      });
      for (const [status, count] of counts) {
        if (!operation.statuses.includes(status)) listed.push({ status, documented: false, count, assumptions: [] });
      }
      const count = [...counts.values()].reduce((sum, value) => sum + value, 0);
      if (count > 0) exercised++;
      return { operationId: operation.id, method: operation.method, path: operation.path, count, responses: listed };
    });
    const order = [...text.keys()];
    const assumptions = [...used]
      .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
      .map(([id, count]) => ({ id, ...text.get(id)!, count }));
    return {
      operations,
      totals: { operations: operations.length, exercised, responses, responsesExercised },
      assumptions,
    };
  }
}

/** An operation of the contract as the tally lists it: its documented statuses, in the spec's order. */
interface CountedOperation {
  id: string;
  method: string;
  path: string;
  statuses: string[];
}

/** The spec's assumptions: each one's place and text by name, and the names each response rests on. */
interface Assumptions {
  /** By operation id, then status. */
  byResponse: Map<string, Map<string, string[]>>;
  text: Map<string, { place: string; text: string }>;
}

function readAssumptions(document: Contract["document"], operations: readonly CountedOperation[]): Assumptions {
  const numbered = new Map<string, string>();
  const text = new Map<string, { place: string; text: string }>();
  for (const { id, pointer, text: said } of listAssumptions(document)) {
    numbered.set(pointer, id);
    // One decision written in several places is shown at its first.
    if (!text.has(id)) text.set(id, { place: describePlace(pointer), text: said });
  }
  const byResponse = new Map(
    operations.map((operation) => {
      const base = `/paths/${escapeToken(operation.path)}/${operation.method.toLowerCase()}/responses`;
      return [
        operation.id,
        new Map(
          operation.statuses.map((status) => [
            status,
            markersUnder(document, `${base}/${escapeToken(status)}`, numbered),
          ]),
        ),
      ];
    }),
  );
  return { byResponse, text };
}

/** The names of the markers on a node and on everything it refers to, each once, in the order of the spec. */
function markersUnder(document: unknown, pointer: string, numbered: Map<string, string>): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (node: unknown, at: string): void => {
    if (node === null || typeof node !== "object") return;
    const marker = numbered.get(at);
    if (marker) found.add(marker);
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#/")) {
      const target = ref.slice(1);
      if (!seen.has(target)) {
        seen.add(target);
        visit(resolvePointer(document, target), target);
      }
    }
    for (const [key, child] of Object.entries(node)) visit(child, `${at}/${escapeToken(key)}`);
  };
  seen.add(pointer);
  visit(resolvePointer(document, pointer), pointer);
  const order = [...numbered.values()];
  return [...found].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
