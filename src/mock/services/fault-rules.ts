import { failure, success, type FieldError, type Outcome } from "../problems.ts";
import { MAX_DELAY_MS } from "./delay-limit.ts";

/** The most rules a mock keeps at once; a client that adds more is told so instead of growing the list. */
export const MAX_FAULT_RULES = 100;
/** The largest `times` a rule can have; "unlimited" is leaving it out. */
export const MAX_FAULT_TIMES = 1_000_000;
const MAX_PATH_LENGTH = 2048;
const METHODS = new Set(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]);
const FIELDS = new Set(["method", "path", "status", "delay", "drop", "times"]);

/** A rule as a client writes it (`POST /__admin/faults`) and reads it back (`GET /__admin/faults`). */
export interface FaultRule {
  /** Given by the mock, in the order rules were added. */
  id: number;
  /** Only requests with this method (upper case); any method when absent. */
  method?: string;
  /**
   * Which request paths (without the query) the rule applies to: exactly this path
   * (`/api/v1/object/property/1001`), any path of a template as the spec writes it (`/api/v1/object/property/{nid}`:
   * a `{parameter}` is one whole segment), or any path starting with what comes before a final `*`
   * (`/api/v1/object/agent_card/*`).
   */
  path: string;
  /** Answer this status with a problem+json body, without running the operation. */
  status?: number;
  /** Wait this many milliseconds first. */
  delay?: number;
  /** Close the connection without answering. */
  drop?: boolean;
  /** How many more matching requests the rule applies to; unlimited when absent. */
  times?: number;
}

/** An operation of the contract as a rule is checked against: its method and its path as the spec writes it. */
export interface FaultRoute {
  method: string;
  pathTemplate: string;
}

/** A rule with the test of its path, compiled once when it is added. */
interface HeldRule {
  rule: FaultRule;
  matches: (path: string) => boolean;
}

/** What a rule does to one request, as recorded in the journal. */
export type AppliedRule = Omit<FaultRule, "times" | "method" | "path">;

/**
 * The fault rules of one mock (after WireMock's faults): each applies to the next `times` matching API
 * requests, the first added first. Taking a rule is O(1) while there are none, so the hot path pays nothing.
 */
export class FaultRules {
  #rules: HeldRule[] = [];
  #nextId = 1;
  readonly #routes: readonly FaultRoute[] | undefined;

  /**
   * @param routes the operations of the contract (`contract.operations`): a rule that can match none of them
   *   (an unknown path, a method no operation at its paths takes) is refused, saying why. Without them only the
   *   rule's own form is checked.
   */
  constructor(routes?: readonly FaultRoute[]) {
    this.#routes = routes?.map((route) => ({ method: route.method.toUpperCase(), pathTemplate: route.pathTemplate }));
  }

  /** Validates and adds a rule; every offending field is listed, and nothing is added, when it is not valid. */
  add(input: unknown): Outcome<FaultRule> {
    const checked = validateRule(input, this.#routes);
    if (!checked.ok) return checked;
    if (this.#rules.length >= MAX_FAULT_RULES) {
      return failure(
        "tooManyFaultRules",
        `The mock keeps at most ${MAX_FAULT_RULES} fault rules; DELETE /__admin/faults/{id} removes one, ` +
          `DELETE /__admin/faults all.`,
      );
    }
    const rule: FaultRule = { id: this.#nextId++, ...checked.value };
    this.#rules.push({ rule, matches: pathMatcher(rule.path) });
    return success({ ...rule });
  }

  /** The active rules, with how many times each is left. */
  list(): FaultRule[] {
    return this.#rules.map(({ rule }) => ({ ...rule }));
  }

  /**
   * Removes the rule with this id alone; the rule removed, or undefined when there is none (used up, or never added).
   */
  remove(id: number): FaultRule | undefined {
    const index = this.#rules.findIndex(({ rule }) => rule.id === id);
    if (index < 0) return undefined;
    return { ...this.#rules.splice(index, 1)[0]!.rule };
  }

  /** Removes every rule; numbering starts again at 1, so a test sees the same ids after every reset. */
  clear(): void {
    this.#rules = [];
    this.#nextId = 1;
  }

  /** The fault for a request, if a rule matches it; the rule is used up by one. */
  take(method: string, path: string): AppliedRule | undefined {
    if (this.#rules.length === 0) return undefined;
    const index = this.#rules.findIndex(
      ({ rule, matches }) => (rule.method === undefined || rule.method === method) && matches(path),
    );
    if (index < 0) return undefined;
    const { rule } = this.#rules[index]!;
    if (rule.times !== undefined && --rule.times === 0) this.#rules.splice(index, 1);
    const applied: AppliedRule = { id: rule.id };
    if (rule.status !== undefined) applied.status = rule.status;
    if (rule.delay !== undefined) applied.delay = rule.delay;
    if (rule.drop) applied.drop = true;
    return applied;
  }
}

/** A rule body checked field by field, strictly: unknown fields and wrong types are refused, not ignored. */
function validateRule(input: unknown, routes: readonly FaultRoute[] | undefined): Outcome<Omit<FaultRule, "id">> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return failure(
      "invalidFaultRule",
      'A fault rule is a JSON object such as {"path": "/api/v1/object/property", "status": 503}.',
    );
  }
  const body = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  const wrong = (field: string, detail: string) => errors.push({ in: "body", pointer: `/${field}`, detail });
  for (const field of Object.keys(body)) {
    if (!FIELDS.has(field))
      wrong(field.slice(0, 100), `is not a field of a fault rule (method, path, status, delay, drop, times)`);
  }
  const rule: Omit<FaultRule, "id"> = { path: "" };

  if (
    typeof body.path !== "string" ||
    !body.path.startsWith("/") ||
    body.path.length > MAX_PATH_LENGTH ||
    /[?#\s]/.test(body.path)
  ) {
    wrong("path", `must be a request path starting with / without a query, at most ${MAX_PATH_LENGTH} characters`);
  } else {
    const form = pathFormProblem(body.path);
    if (form) wrong("path", form);
    else rule.path = body.path;
  }
  if (body.method !== undefined) {
    const method = typeof body.method === "string" ? body.method.toUpperCase() : undefined;
    if (method === undefined || !METHODS.has(method)) wrong("method", `must be one of ${[...METHODS].join(", ")}`);
    else rule.method = method;
  }
  if (body.status !== undefined) {
    if (!isInteger(body.status, 400, 599)) wrong("status", "must be an error status from 400 to 599");
    else rule.status = body.status;
  }
  if (body.delay !== undefined) {
    if (!isInteger(body.delay, 0, MAX_DELAY_MS)) wrong("delay", `must be whole milliseconds from 0 to ${MAX_DELAY_MS}`);
    else rule.delay = body.delay;
  }
  if (body.drop !== undefined) {
    if (typeof body.drop !== "boolean") wrong("drop", "must be true or false");
    else if (body.drop) rule.drop = true;
  }
  if (body.times !== undefined) {
    if (!isInteger(body.times, 1, MAX_FAULT_TIMES))
      wrong("times", `must be a whole number from 1 to ${MAX_FAULT_TIMES}; leave it out for no limit`);
    else rule.times = body.times;
  }
  if (rule.drop && rule.status !== undefined)
    wrong("drop", "cannot go with status: a dropped connection answers nothing");
  if (errors.length === 0 && rule.status === undefined && rule.delay === undefined && !rule.drop) {
    wrong("status", "a rule needs status, delay or drop: true, or it does nothing");
  }
  if (errors.length === 0 && routes) {
    const unmatched = unmatchedRoute(rule, routes);
    if (unmatched) wrong(unmatched.field, unmatched.detail);
  }
  if (errors.length > 0) {
    const places = errors.length === 1 ? "1 field" : `${errors.length} fields`;
    return failure("invalidFaultRule", `The fault rule is wrong in ${places}.`, errors.slice(0, 20));
  }
  return success(rule);
}

/** Why a path cannot be a rule's path (a misplaced `*`, a `{parameter}` that is not a whole segment), or undefined. */
function pathFormProblem(path: string): string | undefined {
  const star = path.indexOf("*");
  if (star >= 0 && star !== path.length - 1)
    return (
      "may hold a * only at its end (/api/v1/object/agent_card/* matches every path starting with " +
      "/api/v1/object/agent_card/)"
    );
  for (const segment of path.replace(/\*$/, "").split("/")) {
    const braces = segment.includes("{") || segment.includes("}");
    if (braces && !/^\{[^{}]+\}$/.test(segment)) {
      return (
        `has ${JSON.stringify(segment.slice(0, 100))}: a {parameter} is a whole segment, as the spec writes it ` +
        `(/api/v1/object/property/{nid})`
      );
    }
  }
  return undefined;
}

/** One segment of a path as a rule or the spec writes it: a literal, or a `{parameter}` (one non-empty segment). */
type Segment = { literal: string } | { param: true };

function segmentsOf(path: string): Segment[] {
  return path.split("/").map((segment) => (/^\{[^{}]+\}$/.test(segment) ? { param: true } : { literal: segment }));
}

/** The test of a rule's path: exact, a template's paths, or a prefix before a final `*`. */
function pathMatcher(path: string): (requestPath: string) => boolean {
  const wildcard = path.endsWith("*");
  if (!wildcard && !path.includes("{")) return (requestPath) => requestPath === path;
  if (wildcard && !path.includes("{")) {
    const prefix = path.slice(0, -1);
    return (requestPath) => requestPath.startsWith(prefix);
  }
  const source = segmentsOf(wildcard ? path.slice(0, -1) : path)
    .map((segment) => ("param" in segment ? "[^/]+" : segment.literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  const pattern = new RegExp(`^${source}${wildcard ? "" : "$"}`);
  return (requestPath) => pattern.test(requestPath);
}

/**
 * Why a rule can match no operation of the contract, naming the field at fault, or undefined when it matches one.
 * A rule matches an operation when some request path could be both one of the rule's paths and one of the
 * operation's, and the rule's method (if any) is the operation's.
 */
function unmatchedRoute(
  rule: Omit<FaultRule, "id">,
  routes: readonly FaultRoute[],
): { field: "path" | "method"; detail: string } | undefined {
  const reached = routes.filter((route) => pathsMeet(rule.path, route.pathTemplate));
  if (reached.length === 0) {
    const templates = [...new Set(routes.map((route) => route.pathTemplate))];
    return {
      field: "path",
      detail:
        `matches no operation of the contract, so the rule would never apply; the operations' paths are ` +
        `${templates.join(", ")} (a path of one, a template as written there, or a prefix ending in *)`,
    };
  }
  if (rule.method !== undefined && !reached.some((route) => route.method === rule.method)) {
    const methods = [...new Set(reached.map((route) => route.method))];
    return {
      field: "method",
      detail:
        `no operation at the paths this rule matches takes ${rule.method}, so the rule would never apply; they ` +
        `take ${methods.join(", ")}`,
    };
  }
  return undefined;
}

/** Whether some request path is both one of a rule's paths and one of a spec template's, segment by segment. */
function pathsMeet(rulePath: string, template: string): boolean {
  const wildcard = rulePath.endsWith("*");
  const rule = segmentsOf(wildcard ? rulePath.slice(0, -1) : rulePath);
  const spec = segmentsOf(template);
  if (wildcard ? rule.length > spec.length : rule.length !== spec.length) return false;
  return rule.every((segment, at) => {
    const other = spec[at]!;
    const last = wildcard && at === rule.length - 1;
    if ("param" in segment) return "param" in other || other.literal !== "";
    if ("param" in other) return last || segment.literal !== "" ? !segment.literal.includes("/") : false;
    return last ? other.literal.startsWith(segment.literal) : other.literal === segment.literal;
  });
}

function isInteger(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}
