import type { Contract } from "../../create-contract.ts";
import type { Tier } from "../../contract-violation.ts";
import { CheckLedger, excerpt } from "../check-ledger.ts";
import type { NoAnswer } from "../http-exchange.ts";
import type { CheckName } from "../checks.ts";
import type { Exchange } from "../http-exchange.ts";
import type { Sender } from "../sender.ts";
import { compareSent, PROPERTY_SAMENESS } from "../steps/sent-value.ts";
import { compactKey, isNumericStringOf, show, type Json } from "../steps/step-support.ts";
import { describeCase, type FuzzCase } from "./fuzz-case.ts";
import { propertyFieldName, type InputOperation } from "./input-model.ts";
import { brokenFacts, describeKept, type PropertyVocabulary } from "../taken-request.ts";

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
  /** Sends each case and read as the primary account. */
  sender: Sender;
  contract: Contract;
  closedContract: Contract;
  strict: boolean;
  /** Told of every property a case created: the service cannot delete one, so the report lists it. */
  created: (nid: string) => void;
  /**
   * How many properties the phase may create (one per 20 cases asked for): a valid create past half of them is
   * sent as an edit of the phase's own property, and any create past all of them is not sent.
   */
  propertyLimit: number;
  /** The edit operation, which a valid create past the limit becomes. */
  edit?: InputOperation;
  /** The lists 2.1 holds a stored property to. */
  vocabulary: PropertyVocabulary;
  /**
   * Told of a request that got no answer (later than the timeout, a reset connection): it fails that request's
   * check, and the case is dropped with what rested on it. True when the service seems gone (it is unreachable, or
   * several requests in a row got no answer): the phase then stops. Without it, any request without an answer
   * ends the phase.
   */
  unanswered?: (operationId: string, failure: NoAnswer) => boolean;
  /** Told of every answer, so that "several in a row" counts only requests without one. */
  answered?: () => void;
}

/** The outcome of one case: what it found, how many requests it sent, and whether the service still answers. */
export interface CaseOutcome {
  findings: Finding[];
  /** The generated request (1) and the reads that checked it. */
  sent: number;
  reads: number;
  noAnswer?: string;
  /**
   * Set when a request of the case got no answer: how many findings the case had made before it. What came after
   * rested on an answer that never came, so it is dropped, never reported as a failure of the service.
   */
  unansweredAfter?: number;
  /** A property the case created, with what a retrieve showed. */
  created?: { nid: string; record?: Json };
  /** A valid create the phase sent as an edit of its own property, since it had made the properties it may. */
  asEdit?: true;
  /** A create the phase did not send, since it had made the properties it may and the service might take it. */
  notSent?: true;
}

const API = "/api/v1/object";

/** How fetch reports a connection reset under a request. */
const STALE_CONNECTION = /ECONNRESET|other side closed|socket hang up/i;

/**
 * A valid create body as the edit of the same fields (section 4.1, endpoint 4: property field names, each with a
 * string value): the create's "square feet" as `square_feet`, an integer as its numeric string.
 */
function asEditBody(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([field, value]) => [
      propertyFieldName(field),
      typeof value === "number" ? String(value) : value,
    ]),
  );
}

/**
 * Runs generated cases against the service and holds each answer to the contract and to what the document says
 * a request of that kind must do: a valid case is never answered 5xx, and a 2xx to it shows on retrieve in the
 * documented representation (a 4xx is a warning: a service may limit what the document leaves open); an invalid
 * case is never answered 5xx, refused it changes nothing, and taken it leaves a property that keeps every fact of
 * 2.1 (that it was taken at all is a warning: the document nowhere says such a request is refused).
 */
export class CaseRunner {
  readonly state: FuzzState = {};
  /** The properties the phase's cases made. */
  #made = new Set<string>();
  readonly #deps: CaseRunnerDeps;
  /** Holds answers against the contract; its results are read per case, then dropped. */
  readonly ledger: CheckLedger;

  constructor(deps: CaseRunnerDeps) {
    this.#deps = deps;
    this.ledger = new CheckLedger({
      contract: deps.contract,
      closedContract: deps.closedContract,
      strict: deps.strict,
      emit: () => {},
    });
  }

  /** Notes a property a case made: once each, for the report and the limit. */
  #created(nid: string): void {
    this.#made.add(nid);
    this.#deps.created(nid);
  }

  async run(operation: InputOperation, fuzzCase: FuzzCase): Promise<CaseOutcome> {
    if (operation.id === "createProperty") {
      const { propertyLimit, edit } = this.#deps;
      // Half the properties the phase may make go to valid creates, the rest to creates the document rules out that
      // a lenient service takes; past them a valid create is judged as an edit of the phase's own property.
      if (!fuzzCase.broken && this.#made.size >= Math.ceil(propertyLimit / 2) && edit && this.state.nid !== undefined) {
        const outcome = await this.run(edit, {
          operation: edit.id,
          params: { nid: this.state.nid },
          body: asEditBody(fuzzCase.body ?? {}),
        });
        return { ...outcome, asEdit: true };
      }
      if (this.#made.size >= propertyLimit) return { findings: [], sent: 0, reads: 0, notSent: true };
    }
    const outcome: CaseOutcome = { findings: [], sent: 0, reads: 0 };
    const path = pathOf(operation, fuzzCase.params);
    const exchange = await this.#send(outcome, operation.id, operation.method, path, fuzzCase.body, false);
    if (!exchange) return outcome;
    // One kind per rule broken, not per field: the shrunk case shows the field, and a service that takes one
    // wrong type usually takes it in every field.
    const kindOfCase = fuzzCase.broken ? fuzzCase.broken.rule : "valid";
    const finding = (kind: string, check: CheckName, message: string, extra: Partial<Finding> = {}): void => {
      outcome.findings.push({
        kind: `${check}:${operation.id}:${kind}`,
        operation: operation.id,
        check,
        tier: "fact",
        section: operation.section,
        message,
        exchange,
        ...extra,
      });
    };
    const status = exchange.status;
    if (status >= 500) {
      // One kind per operation: the smallest request that still fails shows what crashes it, whatever the case was.
      finding(
        "5xx",
        "not_a_server_error",
        `a generated ${describeCase(fuzzCase)} case was answered ${status}: ${excerpt(exchange.text)}`,
        { section: "4", actual: `${status} ${excerpt(exchange.text)}` },
      );
      return outcome;
    }
    const accepted = status >= 200 && status < 300;
    if (fuzzCase.broken) {
      const { section } = fuzzCase.broken;
      const rule = describeCase(fuzzCase).replace(/^invalid: /, "");
      if (!accepted) {
        // A refusal is a fact in what it did: nothing (a 5xx was found above).
        if (operation.method === "GET") return outcome;
        const changed = await this.#changes(outcome, operation.id, exchange);
        if (changed)
          finding(
            `${kindOfCase}:changed`,
            "negative_data_rejection",
            `the service refused the generated request (${rule}) with ${status}, yet ${changed}`,
            { section },
          );
        return outcome;
      }
      // Taken: judged by what the service then answers and stores. The answer was held to the contract already.
      const taken =
        operation.method === "GET"
          ? `taken (${status})`
          : await this.#judgeTaken(outcome, operation.id, fuzzCase, exchange, finding);
      if (taken !== undefined) {
        finding(
          `${kindOfCase}:taken`,
          "negative_data_rejection",
          `the generated request breaks a documented rule (${rule}) and was ${taken}: we expect a refusal, ` +
            `which the document does not require`,
          {
            tier: "assumption",
            section,
            expected: "a refusal (any status but 2xx)",
            actual: `${status} ${excerpt(exchange.text)}`,
          },
        );
      }
      return outcome;
    }
    // a record the generated id does not name is not found: any 4xx will do
    if (operation.method === "GET") return outcome;
    if (!accepted) {
      outcome.findings.push({
        kind: `status_code_conformance:${operation.id}:refused:${status}`,
        operation: operation.id,
        check: "status_code_conformance",
        tier: "assumption",
        section: "4",
        exchange,
        message:
          `a request the document allows was refused with ${status} (a service may limit lengths or characters ` +
          `the document leaves open): ${excerpt(exchange.text)}`,
        expected: "200",
        actual: `${status} ${excerpt(exchange.text)}`,
      });
      return outcome;
    }
    const body = fuzzCase.body ?? {};
    if (operation.id === "createProperty") {
      const nid = recordOf(exchange)?.nid;
      if (typeof nid !== "string" && typeof nid !== "number") return outcome;
      this.#created(String(nid));
      outcome.created = { nid: String(nid) };
      const retrieved = await this.#retrieve(outcome, String(nid));
      if (!retrieved) {
        finding(
          "valid:not-found",
          "ensure_resource_availability",
          `the property ${nid} a generated create made cannot be retrieved`,
          { section: "4.1" },
        );
        return outcome;
      }
      outcome.created.record = retrieved;
      for (const [field, sent] of Object.entries(body)) {
        const name = propertyFieldName(field);
        const problem = representationProblem(name, sent, retrieved[name], "create");
        if (problem)
          finding(`valid:${name}`, "create_round_trip", `${problem} (section 2.1)`, {
            section: "2.1",
            expected: show(sent),
            actual: show(retrieved[name]),
          });
      }
      if (this.state.listed) this.state.listed.add(String(nid));
      return outcome;
    }
    // An edit of the run's own property: what it named shows, what it did not name keeps its value.
    const after = await this.#retrieve(outcome, this.state.nid!);
    if (!after) {
      finding(
        "valid:not-found",
        "ensure_resource_availability",
        `the property ${this.state.nid} cannot be retrieved after a generated edit`,
        { section: "4.1" },
      );
      return outcome;
    }
    // Only what the edit named: the document does not say which fields a service derives from others (a
    // website_url from the subdomain), so a generated edit of many fields cannot tell a derived change apart.
    for (const [name, sent] of Object.entries(body)) {
      const problem = representationProblem(name, sent, after[name], "edit");
      if (problem)
        finding(`valid:${name}`, "edit_visible", `${problem} (sections 4.1 and 2.1)`, {
          section: "4.1",
          expected: show(sent),
          actual: show(after[name]),
        });
    }
    this.state.current = after;
    return outcome;
  }

  /**
   * A generated request the document rules out that the service took: the property it made or edited, retrieved,
   * must keep every fact of 2.1 its schema does not state (each broken fact a finding with its section); says how
   * the field it broke was kept, or undefined when the property could not be retrieved (that is the finding).
   */
  async #judgeTaken(
    outcome: CaseOutcome,
    operationId: string,
    fuzzCase: FuzzCase,
    exchange: Exchange,
    finding: (kind: string, check: CheckName, message: string, extra?: Partial<Finding>) => void,
  ): Promise<string | undefined> {
    const kind = fuzzCase.broken!.rule;
    let nid = this.state.nid;
    let before: Json | undefined = this.state.current;
    if (operationId === "createProperty") {
      const made = recordOf(exchange)?.nid;
      if (typeof made !== "string" && typeof made !== "number") return `taken (${exchange.status}) with no nid`;
      nid = String(made);
      before = undefined;
      this.#created(nid);
      this.state.listed?.add(nid);
    }
    if (nid === undefined) return `taken (${exchange.status})`;
    const after = await this.#retrieve(outcome, nid);
    if (!after) {
      finding(
        `${kind}:not-found`,
        "ensure_resource_availability",
        `the service took a generated request (${exchange.status}), and property ${nid} cannot be retrieved after it`,
        { section: "4.1" },
      );
      return undefined;
    }
    if (operationId !== "createProperty") this.state.current = after;
    const body = fuzzCase.body ?? {};
    const sentEmpty = new Set(
      Object.entries(body)
        .filter(([, value]) => value === "")
        .map(([field]) => propertyFieldName(field)),
    );
    for (const fact of brokenFacts(after, this.#deps.vocabulary, sentEmpty)) {
      finding(
        `${kind}:fact:${fact.fact}`,
        "negative_data_rejection",
        `the service took a generated request the document rules out ` +
          `(${describeCase(fuzzCase).replace(/^invalid: /, "")}) and then breaks a documented fact: ` +
          `${fact.fact} (section ${fact.section}): ${fact.message}`,
        { section: fact.section },
      );
    }
    const field = fuzzCase.broken!.field;
    const name = propertyFieldName(field);
    return describeKept(field, body[field], after[name], before?.[name]);
  }

  /**
   * Takes a property the phase created as the one edits aim at, and lists its owner's properties. Returns the reads.
   */
  async aim(nid: string, record: Json): Promise<number> {
    this.state.nid = nid;
    this.state.current = record;
    if (typeof record.uid !== "string" && typeof record.uid !== "number") return 0;
    this.state.uid = String(record.uid);
    const outcome: CaseOutcome = { findings: [], sent: 0, reads: 0 };
    const listed = await this.#send(
      outcome,
      "listUserProperties",
      "GET",
      `${API}/properties/${encodeURIComponent(this.state.uid)}`,
      undefined,
      true,
    );
    if (listed?.status === 200 && Array.isArray(listed.body))
      this.state.listed = new Set((listed.body as Json[]).map((entry) => String(entry?.nid)));
    return outcome.reads;
  }

  /** Lists the user's properties (or retrieves the run's property) and says what changed since last seen. */
  async #changes(outcome: CaseOutcome, operationId: string, exchange: Exchange): Promise<string | undefined> {
    if (operationId === "createProperty") {
      const created = recordOf(exchange)?.nid;
      if (
        exchange.status >= 200 &&
        exchange.status < 300 &&
        (typeof created === "string" || typeof created === "number")
      ) {
        this.#created(String(created));
        this.state.listed?.add(String(created));
      }
      if (!this.state.uid || !this.state.listed) return undefined;
      const listed = await this.#send(
        outcome,
        "listUserProperties",
        "GET",
        `${API}/properties/${encodeURIComponent(this.state.uid)}`,
        undefined,
        true,
      );
      if (listed?.status !== 200 || !Array.isArray(listed.body)) return undefined;
      const nids = (listed.body as Json[]).map((entry) => String(entry?.nid));
      const added = nids.filter((nid) => !this.state.listed!.has(nid));
      for (const nid of added) this.#created(nid);
      this.state.listed = new Set(nids);
      return added.length > 0 ? `property ${added.join(", ")} appeared in the user's list` : undefined;
    }
    if (!this.state.nid) return undefined;
    const before = this.state.current;
    const after = await this.#retrieve(outcome, this.state.nid);
    if (!after) return undefined;
    this.state.current = after;
    if (!before) return undefined;
    const moved = Object.keys({ ...before, ...after }).filter(
      (name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]),
    );
    return moved.length > 0
      ? `property ${this.state.nid} changed: ${moved
          .slice(0, 5)
          .map((name) => `${name} from ${show(before[name])} to ${show(after[name])}`)
          .join("; ")}`
      : undefined;
  }

  async #retrieve(outcome: CaseOutcome, nid: string): Promise<Json | undefined> {
    const exchange = await this.#send(
      outcome,
      "retrieveProperty",
      "GET",
      `${API}/property/${encodeURIComponent(nid)}`,
      undefined,
      true,
    );
    return exchange?.status === 200 ? recordOf(exchange) : undefined;
  }

  async #send(
    outcome: CaseOutcome,
    operationId: string,
    method: string,
    path: string,
    body: unknown,
    read: boolean,
  ): Promise<Exchange | undefined> {
    if (outcome.noAnswer || outcome.unansweredAfter !== undefined) return undefined;
    // A copy: fast-check may reuse a generated value while it shrinks, and the report must show what was sent.
    const copy: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
    const { sender } = this.#deps;
    const headers = sender.headers("primary", "valid");
    let sent = await sender.trySend(method, path, headers, copy);
    // A kept-alive connection the service closed while idle (on a busy machine, between two cases) is reset under
    // the next request before the service reads it: sent again once on a new connection. A service that resets
    // the connection on this input resets it again, and that is reported.
    if (!sent.ok && STALE_CONNECTION.test(sent.failure.reason))
      sent = await sender.trySend(method, path, headers, copy);
    if (read) outcome.reads += 1;
    else outcome.sent += 1;
    if (!sent.ok) {
      const { unanswered } = this.#deps;
      if (unanswered && sent.failure.kind !== "interrupted") {
        outcome.unansweredAfter = outcome.findings.length;
        if (unanswered(operationId, sent.failure))
          outcome.noAnswer = `the service stopped answering at ${method} ${path}: ${sent.failure.reason}`;
        return undefined;
      }
      outcome.noAnswer = `the service stopped answering at ${method} ${path}: ${sent.failure.reason}`;
      return undefined;
    }
    this.#deps.answered?.();
    const exchange = sent.exchange;
    const from = this.ledger.results.length;
    this.ledger.checkAnswer(
      "generated",
      { operation: operationId, request: { method, path, status: exchange.status } },
      exchange,
    );
    for (const result of this.ledger.results.splice(from)) {
      if (result.status === "passed" || result.status === "skipped" || result.check === "not_a_server_error") continue;
      if (exchange.status >= 500 && result.check === "status_code_conformance") continue; // the 5xx is the finding
      outcome.findings.push({
        kind: `${result.check}:${operationId}:${exchange.status}`,
        operation: operationId,
        check: result.check,
        tier: result.tier,
        section: result.section ?? "2",
        message: result.message ?? "",
        exchange,
        ofAnswer: true,
      });
    }
    return exchange;
  }
}

/** The concrete path of an operation, its parameters percent-encoded. */
export function pathOf(operation: InputOperation, params: Record<string, string>): string {
  return operation.pathTemplate.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    encodeURIComponent(params[name] ?? ""),
  );
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
export function representationProblem(
  field: string,
  sent: unknown,
  got: unknown,
  how: "create" | "edit",
): string | undefined {
  const said = `${field} is ${show(got)}, the ${how} sent ${show(sent)}`;
  if (field === "garage")
    return typeof got === "string" && /^[0-9]+$/.test(got)
      ? undefined
      : `${said}: garage comes back as a count-like numeric string`;
  if (field === "property_type") {
    return typeof got === "string" && !got.includes(" ") && compactKey(got) === compactKey(String(sent))
      ? undefined
      : `${said}: property_type comes back in a compact form without spaces`;
  }
  if (typeof sent === "number")
    return isNumericStringOf(got, sent) ? undefined : `${said}: numbers come back as numeric strings`;
  const kind = PROPERTY_SAMENESS[field] ?? "text";
  // The same text in Unicode's canonical form, without surrounding spaces, is the value sent: a service may
  // normalise text it stores (NFC, trimming), which the document neither asks for nor forbids.
  if (kind === "text" && typeof sent === "string" && typeof got === "string" && sameText(sent, got)) return undefined;
  return compareSent(kind, sent, got) === "different" ? said : undefined;
}

function sameText(sent: string, got: string): boolean {
  return sent.normalize("NFC").trim() === got.normalize("NFC").trim();
}
