import type { Contract } from "../../create-contract.ts";
import type { Tier } from "../../contract-violation.ts";
import { CheckLedger, excerpt } from "../check-ledger.ts";
import type { CheckName } from "../checks.ts";
import type { Exchange, Exchanger } from "../http-exchange.ts";
import { compareSent, PROPERTY_SAMENESS } from "../steps/sent-value.ts";
import { compactKey, isNumericStringOf, show, type Json } from "../steps/step-support.ts";
import { describeCase, type FuzzCase } from "./fuzz-case.ts";
import type { InputOperation } from "./input-model.ts";

/** Something a case showed that is not as the contract says: a failure, or a warning of the assumption tier. */
export interface Finding {
  /** What makes two findings the same: the phase reports each kind once, with its smallest case. */
  kind: string;
  /** The operation whose answer shows it: the case's own, or a read that checked what the case did. */
  operation: string;
  check: CheckName;
  tier: Tier;
  section: string;
  message: string;
  /** The generated request that shows it (its curl line goes in the report). */
  exchange: Exchange;
  expected?: string;
  actual?: string;
  /** Found by holding the answer to the contract (status, content type, schema), as the scenario does too. */
  ofAnswer?: true;
}

/** What the run knows of its own property while cases go on. */
export interface FuzzState {
  nid?: string;
  uid?: string;
  /** The property as last retrieved, to tell what a request changed. */
  current?: Json;
  /** The nids list-by-user showed last, to tell whether a refused create left a property. */
  listed?: Set<string>;
}

/** Collaborators of the case runner. */
export interface CaseRunnerDeps {
  exchange: Exchanger;
  headers: Record<string, string>;
  contract: Contract;
  closedContract: Contract;
  strict: boolean;
  /** Told of every property a case created: the service cannot delete one, so the report lists it. */
  created: (nid: string) => void;
}

/** The outcome of one case: what it found, how many requests it sent, and whether the service still answers. */
export interface CaseOutcome {
  findings: Finding[];
  /** The generated request (1) and the reads that checked it. */
  sent: number;
  reads: number;
  noAnswer?: string;
  /** A property the case created, with what a retrieve showed. */
  created?: { nid: string; record?: Json };
}

const API = "/api/v1/object";

/** How fetch reports a connection reset under a request. */
const STALE_CONNECTION = /ECONNRESET|other side closed|socket hang up/i;

/** Path fields of a property (2.1) that the edit body names differently: the create's "square feet". */
const RETRIEVED_AS: Record<string, string> = { "square feet": "square_feet" };

/**
 * Runs generated cases against the service and holds each answer to the contract and to what the document says
 * a request of that kind must do: a valid case is never answered 5xx, and a 2xx to it shows on retrieve in the
 * documented representation (a 4xx is a warning: a service may limit what the document leaves open); an invalid
 * case is refused, never with 5xx, and changes nothing.
 */
export class CaseRunner {
  readonly state: FuzzState = {};
  readonly #deps: CaseRunnerDeps;
  /** Holds answers against the contract; its results are read per case, then dropped. */
  readonly ledger: CheckLedger;

  constructor(deps: CaseRunnerDeps) {
    this.#deps = deps;
    this.ledger = new CheckLedger({ contract: deps.contract, closedContract: deps.closedContract, strict: deps.strict, emit: () => {} });
  }

  async run(operation: InputOperation, fuzzCase: FuzzCase): Promise<CaseOutcome> {
    const outcome: CaseOutcome = { findings: [], sent: 0, reads: 0 };
    const path = pathOf(operation, fuzzCase.params);
    const exchange = await this.#send(outcome, operation.id, operation.method, path, fuzzCase.body, false);
    if (!exchange) return outcome;
    // One kind per rule broken, not per field: the shrunk case shows the field, and a service that takes one
    // wrong type usually takes it in every field.
    const kindOfCase = fuzzCase.broken ? fuzzCase.broken.rule : "valid";
    const finding = (kind: string, check: CheckName, message: string, extra: Partial<Finding> = {}): void => {
      outcome.findings.push({ kind: `${check}:${operation.id}:${kind}`, operation: operation.id, check, tier: "fact", section: operation.section, message, exchange, ...extra });
    };
    const status = exchange.status;
    if (status >= 500) {
      // One kind per operation: the smallest request that still fails shows what crashes it, whatever the case was.
      finding("5xx", "not_a_server_error", `a generated ${describeCase(fuzzCase)} case was answered ${status}: ${excerpt(exchange.text)}`, { section: "4", actual: `${status} ${excerpt(exchange.text)}` });
      return outcome;
    }
    const accepted = status >= 200 && status < 300;
    if (fuzzCase.broken) {
      const { section } = fuzzCase.broken;
      if (accepted) {
        finding(kindOfCase, "negative_data_rejection", `the generated request breaks a documented rule (${describeCase(fuzzCase).replace(/^invalid: /, "")}) and was accepted`, {
          section, expected: "a refusal (any status but 2xx)", actual: `${status} ${excerpt(exchange.text)}`,
        });
      }
      if (operation.method === "GET") return outcome;
      const changed = await this.#changes(outcome, operation.id, exchange);
      if (changed && !accepted) finding(`${kindOfCase}:changed`, "negative_data_rejection", `the service refused the generated request (${describeCase(fuzzCase).replace(/^invalid: /, "")}) with ${status}, yet ${changed}`, { section });
      return outcome;
    }
    if (operation.method === "GET") return outcome; // a record the generated id does not name is not found: any 4xx will do
    if (!accepted) {
      outcome.findings.push({
        kind: `status_code_conformance:${operation.id}:refused:${status}`, operation: operation.id, check: "status_code_conformance", tier: "assumption", section: "4", exchange,
        message: `a request the document allows was refused with ${status} (a service may limit lengths or characters the document leaves open): ${excerpt(exchange.text)}`,
        expected: "200", actual: `${status} ${excerpt(exchange.text)}`,
      });
      return outcome;
    }
    const body = fuzzCase.body ?? {};
    if (operation.id === "createProperty") {
      const nid = recordOf(exchange)?.nid;
      if (typeof nid !== "string" && typeof nid !== "number") return outcome;
      this.#deps.created(String(nid));
      outcome.created = { nid: String(nid) };
      const retrieved = await this.#retrieve(outcome, String(nid));
      if (!retrieved) {
        finding("valid:not-found", "ensure_resource_availability", `the property ${nid} a generated create made cannot be retrieved`, { section: "4.1" });
        return outcome;
      }
      outcome.created.record = retrieved;
      for (const [field, sent] of Object.entries(body)) {
        const name = RETRIEVED_AS[field] ?? field;
        const problem = representationProblem(name, sent, retrieved[name], "create");
        if (problem) finding(`valid:${name}`, "create_round_trip", `${problem} (section 2.1)`, { section: "2.1", expected: show(sent), actual: show(retrieved[name]) });
      }
      if (this.state.listed) this.state.listed.add(String(nid));
      return outcome;
    }
    // An edit of the run's own property: what it named shows, what it did not name keeps its value.
    const after = await this.#retrieve(outcome, this.state.nid!);
    if (!after) {
      finding("valid:not-found", "ensure_resource_availability", `the property ${this.state.nid} cannot be retrieved after a generated edit`, { section: "4.1" });
      return outcome;
    }
    // Only what the edit named: the document does not say which fields a service derives from others (a
    // website_url from the subdomain), so a generated edit of many fields cannot tell a derived change apart.
    for (const [name, sent] of Object.entries(body)) {
      const problem = representationProblem(name, sent, after[name], "edit");
      if (problem) finding(`valid:${name}`, "edit_visible", `${problem} (sections 4.1 and 2.1)`, { section: "4.1", expected: show(sent), actual: show(after[name]) });
    }
    this.state.current = after;
    return outcome;
  }

  /** Takes a property the phase created as the one edits aim at, and lists its owner's properties. Returns the reads. */
  async aim(nid: string, record: Json): Promise<number> {
    this.state.nid = nid;
    this.state.current = record;
    if (typeof record.uid !== "string" && typeof record.uid !== "number") return 0;
    this.state.uid = String(record.uid);
    const outcome: CaseOutcome = { findings: [], sent: 0, reads: 0 };
    const listed = await this.#send(outcome, "listUserProperties", "GET", `${API}/properties/${encodeURIComponent(this.state.uid)}`, undefined, true);
    if (listed?.status === 200 && Array.isArray(listed.body)) this.state.listed = new Set((listed.body as Json[]).map((entry) => String(entry?.nid)));
    return outcome.reads;
  }

  /** Lists the user's properties (or retrieves the run's property) and says what changed since last seen. */
  async #changes(outcome: CaseOutcome, operationId: string, exchange: Exchange): Promise<string | undefined> {
    if (operationId === "createProperty") {
      const created = recordOf(exchange)?.nid;
      if (exchange.status >= 200 && exchange.status < 300 && (typeof created === "string" || typeof created === "number")) {
        this.#deps.created(String(created));
        this.state.listed?.add(String(created));
      }
      if (!this.state.uid || !this.state.listed) return undefined;
      const listed = await this.#send(outcome, "listUserProperties", "GET", `${API}/properties/${encodeURIComponent(this.state.uid)}`, undefined, true);
      if (listed?.status !== 200 || !Array.isArray(listed.body)) return undefined;
      const nids = (listed.body as Json[]).map((entry) => String(entry?.nid));
      const added = nids.filter((nid) => !this.state.listed!.has(nid));
      for (const nid of added) this.#deps.created(nid);
      this.state.listed = new Set(nids);
      return added.length > 0 ? `property ${added.join(", ")} appeared in the user's list` : undefined;
    }
    if (!this.state.nid) return undefined;
    const before = this.state.current;
    const after = await this.#retrieve(outcome, this.state.nid);
    if (!after) return undefined;
    this.state.current = after;
    if (!before) return undefined;
    const moved = Object.keys({ ...before, ...after }).filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
    return moved.length > 0 ? `property ${this.state.nid} changed: ${moved.slice(0, 5).map((name) => `${name} from ${show(before[name])} to ${show(after[name])}`).join("; ")}` : undefined;
  }

  async #retrieve(outcome: CaseOutcome, nid: string): Promise<Json | undefined> {
    const exchange = await this.#send(outcome, "retrieveProperty", "GET", `${API}/property/${encodeURIComponent(nid)}`, undefined, true);
    return exchange?.status === 200 ? recordOf(exchange) : undefined;
  }

  async #send(outcome: CaseOutcome, operationId: string, method: string, path: string, body: unknown, read: boolean): Promise<Exchange | undefined> {
    if (outcome.noAnswer) return undefined;
    // A copy: fast-check may reuse a generated value while it shrinks, and the report must show what was sent.
    const copy: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
    const request = { method, path, headers: this.#deps.headers, ...(copy === undefined ? {} : { body: copy }) };
    let sent = await this.#deps.exchange(request);
    // A kept-alive connection the service closed while idle (on a busy machine, between two cases) is reset under
    // the next request before the service reads it: sent again once on a new connection. A service that resets
    // the connection on this input resets it again, and that is reported.
    if (!sent.ok && STALE_CONNECTION.test(sent.failure.reason)) sent = await this.#deps.exchange(request);
    if (read) outcome.reads += 1;
    else outcome.sent += 1;
    if (!sent.ok) {
      outcome.noAnswer = `the service stopped answering at ${method} ${path}: ${sent.failure.reason}`;
      return undefined;
    }
    const exchange = sent.exchange;
    const from = this.ledger.results.length;
    this.ledger.checkAnswer("generated", { operation: operationId, request: { method, path, status: exchange.status } }, exchange);
    for (const result of this.ledger.results.splice(from)) {
      if (result.status === "passed" || result.status === "skipped" || result.check === "not_a_server_error") continue;
      if (exchange.status >= 500 && result.check === "status_code_conformance") continue; // the 5xx is the finding
      outcome.findings.push({
        kind: `${result.check}:${operationId}:${exchange.status}`, operation: operationId, check: result.check, tier: result.tier, section: result.section ?? "2",
        message: result.message ?? "", exchange, ofAnswer: true,
      });
    }
    return exchange;
  }
}

/** The concrete path of an operation, its parameters percent-encoded. */
export function pathOf(operation: InputOperation, params: Record<string, string>): string {
  return operation.pathTemplate.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(params[name] ?? ""));
}

function recordOf(exchange: Exchange | undefined): Json | undefined {
  const body = exchange?.body;
  return body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Json) : undefined;
}

/**
 * Why a value sent does not show as section 2.1 represents it, or undefined: a number sent on create as a
 * numeric string of the same value, garage as a count-like numeric string, property_type compact without
 * spaces, and everything else as the scenario compares it (steps/sent-value.ts: the same number, the same list
 * items, a site address a service may compute; otherwise the text sent).
 */
export function representationProblem(field: string, sent: unknown, got: unknown, how: "create" | "edit"): string | undefined {
  const said = `${field} is ${show(got)}, the ${how} sent ${show(sent)}`;
  if (field === "garage") return typeof got === "string" && /^[0-9]+$/.test(got) ? undefined : `${said}: garage comes back as a count-like numeric string`;
  if (field === "property_type") {
    return typeof got === "string" && !got.includes(" ") && compactKey(got) === compactKey(String(sent)) ? undefined : `${said}: property_type comes back in a compact form without spaces`;
  }
  if (typeof sent === "number") return isNumericStringOf(got, sent) ? undefined : `${said}: numbers come back as numeric strings`;
  const kind = PROPERTY_SAMENESS[field] ?? "text";
  // The same text in Unicode's canonical form, without surrounding spaces, is the value sent: a service may
  // normalise text it stores (NFC, trimming), which the document neither asks for nor forbids.
  if (kind === "text" && typeof sent === "string" && typeof got === "string" && sameText(sent, got)) return undefined;
  return compareSent(kind, sent, got) === "different" ? said : undefined;
}

function sameText(sent: string, got: string): boolean {
  return sent.normalize("NFC").trim() === got.normalize("NFC").trim();
}
