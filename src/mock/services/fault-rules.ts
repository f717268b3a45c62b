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
  /** Only requests to exactly this path (without the query), for example `/api/v1/object/property`. */
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

/** What a rule does to one request, as recorded in the journal. */
export type AppliedRule = Omit<FaultRule, "times" | "method" | "path">;

/**
 * The fault rules of one mock (WireMock's faults, issue 12): each applies to the next `times` matching API
 * requests, the first added first. Taking a rule is O(1) while there are none, so the hot path pays nothing.
 */
export class FaultRules {
  #rules: FaultRule[] = [];
  #nextId = 1;

  /** Validates and adds a rule; every offending field is listed, and nothing is added, when it is not valid. */
  add(input: unknown): Outcome<FaultRule> {
    const checked = validateRule(input);
    if (!checked.ok) return checked;
    if (this.#rules.length >= MAX_FAULT_RULES) {
      return failure("tooManyFaultRules", `The mock keeps at most ${MAX_FAULT_RULES} fault rules; DELETE /__admin/faults removes them.`);
    }
    const rule: FaultRule = { id: this.#nextId++, ...checked.value };
    this.#rules.push(rule);
    return success({ ...rule });
  }

  /** The active rules, with how many times each is left. */
  list(): FaultRule[] {
    return this.#rules.map((rule) => ({ ...rule }));
  }

  /** Removes every rule; numbering starts again at 1, so a test sees the same ids after every reset. */
  clear(): void {
    this.#rules = [];
    this.#nextId = 1;
  }

  /** The fault for a request, if a rule matches it; the rule is used up by one. */
  take(method: string, path: string): AppliedRule | undefined {
    if (this.#rules.length === 0) return undefined;
    const index = this.#rules.findIndex((rule) => rule.path === path && (rule.method === undefined || rule.method === method));
    if (index < 0) return undefined;
    const rule = this.#rules[index]!;
    if (rule.times !== undefined && --rule.times === 0) this.#rules.splice(index, 1);
    const applied: AppliedRule = { id: rule.id };
    if (rule.status !== undefined) applied.status = rule.status;
    if (rule.delay !== undefined) applied.delay = rule.delay;
    if (rule.drop) applied.drop = true;
    return applied;
  }
}

/** A rule body checked field by field, strictly: unknown fields and wrong types are refused, not ignored. */
function validateRule(input: unknown): Outcome<Omit<FaultRule, "id">> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return failure("invalidFaultRule", 'A fault rule is a JSON object such as {"path": "/api/v1/object/property", "status": 503}.');
  }
  const body = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  const wrong = (field: string, detail: string) => errors.push({ in: "body", pointer: `/${field}`, detail });
  for (const field of Object.keys(body)) {
    if (!FIELDS.has(field)) wrong(field.slice(0, 100), `is not a field of a fault rule (method, path, status, delay, drop, times)`);
  }
  const rule: Omit<FaultRule, "id"> = { path: "" };

  if (typeof body.path !== "string" || !body.path.startsWith("/") || body.path.length > MAX_PATH_LENGTH || /[?#\s]/.test(body.path)) {
    wrong("path", `must be a request path starting with / without a query, at most ${MAX_PATH_LENGTH} characters`);
  } else rule.path = body.path;
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
    if (!isInteger(body.times, 1, MAX_FAULT_TIMES)) wrong("times", `must be a whole number from 1 to ${MAX_FAULT_TIMES}; leave it out for no limit`);
    else rule.times = body.times;
  }
  if (rule.drop && rule.status !== undefined) wrong("drop", "cannot go with status: a dropped connection answers nothing");
  if (errors.length === 0 && rule.status === undefined && rule.delay === undefined && !rule.drop) {
    wrong("status", "a rule needs status, delay or drop: true, or it does nothing");
  }
  if (errors.length > 0) {
    const places = errors.length === 1 ? "1 field" : `${errors.length} fields`;
    return failure("invalidFaultRule", `The fault rule is wrong in ${places}.`, errors.slice(0, 20));
  }
  return success(rule);
}

function isInteger(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}
