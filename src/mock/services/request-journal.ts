import { JsonBytes } from "../json-bytes.ts";
import {
  journalEntryOf,
  type AppliedFaults,
  type JournalAnswer,
  type JournaledCall,
  type JournalEntry,
} from "./journal-entry.ts";

export type { AppliedFaults, JournalAnswer, JournaledCall, JournalEntry } from "./journal-entry.ts";

/** Entries the journal keeps unless told otherwise (`--journal-size`). */
export const DEFAULT_JOURNAL_SIZE = 1000;
/** The largest `--journal-size`; the byte budget below bounds memory well before it in practice. */
export const MAX_JOURNAL_SIZE = 100_000;
/** Bytes of a body the journal keeps; a longer body is kept cut, marked `bodyTruncated` with its `bodySize`. */
export const MAX_JOURNAL_BODY_BYTES = 16 * 1024;
/**
 * Bytes (path, headers and kept bodies) the whole journal may hold; the oldest entries go first beyond it, so a
 * client sending large headers or bodies cannot grow the mock past this whatever `--journal-size` says.
 */
export const JOURNAL_BYTE_BUDGET = 32 * 1024 * 1024;

/** `GET /__admin/requests?method=POST&path=/api/v1/object/property`: both exact, both optional. */
export interface JournalFilter {
  method?: string;
  path?: string;
}

/** The request line and headers of an arriving request (a Node `IncomingMessage` is one). */
export interface ArrivingRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/** The handle the HTTP layer fills in as one request is answered. */
export interface JournalRecord {
  /** The body bytes the mock read, and their content-type. */
  body(bytes: Uint8Array, contentType: string | undefined): void;
  /** What was done to the request on purpose. */
  fault(applied: AppliedFaults): void;
  /** What the call was, once the handler knew: its operation and the uid of the account it authenticated as. */
  about(operationId: string | undefined, uid: number | undefined): void;
  /** The answer sent, kept within the journal's budget (the body cut at {@link MAX_JOURNAL_BODY_BYTES}). */
  answer(answer: JournalAnswer): void;
  /** The answer's status, or `null` when there was none. Only the first call counts. */
  finish(status: number | null): void;
}

/** Told of a call when it arrives, when it is over, and of the journal emptied. */
export type JournalListener = (event: "arrived" | "answered" | "cleared", call: JournaledCall | undefined) => void;

const NO_RECORD: JournalRecord = { body() {}, fault() {}, about() {}, answer() {}, finish() {} };
const utf8 = new TextEncoder();

/**
 * One journaled request, and the handle that completes it. A class rather than closures: a request creates one
 * object and no functions (under tsx, each function created also pays esbuild's `__name`).
 */
class Slot implements JournalRecord, JournaledCall {
  readonly id: number;
  readonly method: string;
  readonly url: string;
  /** The request's own header object, kept by reference: Node builds a fresh one per request and never changes it. */
  readonly headers: Record<string, string | string[] | undefined>;
  bytes: Uint8Array | undefined = undefined;
  bodySize = 0;
  contentType: string | undefined = undefined;
  readonly arrived: number;
  readonly started: number;
  status: number | null = null;
  durationMs: number | null = null;
  applied: AppliedFaults | null = null;
  overridden = false;
  operationId: string | undefined = undefined;
  uid: number | undefined = undefined;
  // The answer's parts, not the reply object: the reply is made per request, and a ring that kept it would carry
  // one more object per call into the old generation; its body (an encoded answer) is kept by the mock anyway.
  #answerBody: unknown = undefined;
  #answerContentType: string | undefined = undefined;
  #answerMediaType: string | undefined = undefined;
  #answerHeaders: Record<string, string> | undefined = undefined;
  answerSize: number | undefined = undefined;
  size: number;
  evicted = false;
  readonly #journal: JournalOwner;

  constructor(journal: JournalOwner, id: number, request: ArrivingRequest, arrived: number, started: number) {
    this.#journal = journal;
    this.id = id;
    this.method = request.method ?? "GET";
    this.url = request.url ?? "/";
    this.headers = request.headers;
    this.arrived = arrived;
    this.started = started;
    this.size = this.url.length + headerBytes(request.headers);
  }

  body(bytes: Uint8Array, contentType: string | undefined): void {
    if (this.bytes !== undefined) return;
    this.bodySize = bytes.length;
    // A short body is kept as the very buffer the mock read (nobody writes to it); a long one as a copy of its
    // start, so the journal never holds a large buffer alive.
    this.bytes =
      bytes.length <= MAX_JOURNAL_BODY_BYTES ? bytes : new Uint8Array(bytes.subarray(0, MAX_JOURNAL_BODY_BYTES));
    this.contentType = contentType;
    if (!this.evicted) this.#journal.grow(this, this.bytes.length);
  }

  fault(applied: AppliedFaults): void {
    this.applied = applied;
  }

  about(operationId: string | undefined, uid: number | undefined): void {
    this.operationId = operationId;
    this.uid = uid;
  }

  get answered(): JournalAnswer | undefined {
    if (this.#answerContentType === undefined) return undefined;
    return {
      contentType: this.#answerContentType,
      mediaType: this.#answerMediaType,
      headers: this.#answerHeaders,
      body: this.#answerBody,
    };
  }

  answer(answer: JournalAnswer): void {
    if (this.#answerContentType !== undefined) return;
    // Kept as the very value sent up to the cap (no copy, no allocation: this runs for every call), a longer body
    // as a copy of its start; a value (a problem, its fields capped) is measured as the text it is sent as.
    const { body } = answer;
    const encoded = body instanceof JsonBytes ? body.encoded : body;
    const size =
      encoded === undefined
        ? 0
        : encoded instanceof Uint8Array
          ? encoded.byteLength
          : typeof encoded === "string"
            ? encoded.length
            : JSON.stringify(encoded).length;
    this.#answerContentType = answer.contentType;
    this.#answerMediaType = answer.mediaType;
    this.#answerHeaders = answer.headers;
    if (size > MAX_JOURNAL_BODY_BYTES) {
      const whole =
        encoded instanceof Uint8Array ? undefined : typeof encoded === "string" ? encoded : JSON.stringify(encoded);
      const bytes = whole === undefined ? (encoded as Uint8Array) : utf8.encode(whole.slice(0, MAX_JOURNAL_BODY_BYTES));
      this.#answerBody = new Uint8Array(bytes.subarray(0, MAX_JOURNAL_BODY_BYTES));
      this.answerSize = size;
    } else this.#answerBody = body;
    if (!this.evicted)
      this.#journal.grow(
        this,
        Math.min(size, MAX_JOURNAL_BODY_BYTES) + (answer.headers ? headerBytes(answer.headers) : 0),
      );
  }

  finish(status: number | null): void {
    if (this.durationMs !== null) return;
    this.status = status;
    this.durationMs = Math.round((this.#journal.clock() - this.started) * 100) / 100;
    this.#journal.tell("answered", this);
  }
}

/** What a slot needs of its journal. */
interface JournalOwner {
  grow(slot: Slot, bytes: number): void;
  clock(): number;
  tell(event: "arrived" | "answered", slot: Slot): void;
}

/**
 * The request journal: a ring of the last `capacity` API requests, oldest first, bounded in bytes too. Recording
 * is cheap on purpose (one small object that keeps references; bodies are parsed only when someone reads the
 * journal), so it stays on for every request.
 */
export class RequestJournal {
  readonly capacity: number;
  #slots: Array<Slot | undefined>;
  #start = 0;
  #count = 0;
  #bytes = 0;
  #nextId = 1;
  #listeners: JournalListener[] = [];
  #tally: ((operationId: string | undefined, status: number | null) => void) | undefined = undefined;
  readonly #now: () => number;
  readonly #clock: () => number;
  readonly #owner: JournalOwner = {
    grow: (slot, bytes) => {
      slot.size += bytes;
      this.#bytes += bytes;
      this.#trim();
    },
    clock: () => this.#clock(),
    tell: (event, slot) => {
      if (event === "answered" && this.#tally) this.#tally(slot.operationId, slot.status);
      // Nothing but this length check when nobody listens: the GET path pays for no listener it does not have.
      if (this.#listeners.length === 0) return;
      for (const listener of this.#listeners) listener(event, slot);
    },
  };

  /**
   * @param capacity entries kept, 0 to keep none.
   * @param options `now` (wall clock, ms since the epoch) and `clock` (a monotonic one, for durations).
   */
  constructor(capacity: number = DEFAULT_JOURNAL_SIZE, options: { now?: () => number; clock?: () => number } = {}) {
    this.capacity = capacity;
    this.#slots = [];
    this.#now = options.now ?? Date.now;
    this.#clock = options.clock ?? performance.now.bind(performance);
  }

  /**
   * Records a request as it arrives (so entries are in arrival order) and returns the handle to complete it.
   * `started` is when it arrived on the monotonic clock, when the caller already read it.
   */
  begin(request: ArrivingRequest, started?: number, options?: { overridden?: boolean }): JournalRecord {
    if (this.capacity === 0) return NO_RECORD;
    const slot = new Slot(this.#owner, this.#nextId++, request, this.#now(), started ?? this.#clock());
    if (options?.overridden) slot.overridden = true;
    this.#push(slot);
    this.#owner.tell("arrived", slot);
    return slot;
  }

  /**
   * Tells `listener` of every call from now on, as it arrives and once it is over (the call itself, to read at
   * once), and of the journal emptied; the function returned stops it. Listeners run synchronously on the
   * request's path: they must be quick and must not throw.
   */
  subscribe(listener: JournalListener): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((other) => other !== listener);
    };
  }

  /** Tells `count` of each call once it is over, by its operation and status alone (coverage): one call, no object. */
  countAnswers(count: (operationId: string | undefined, status: number | null) => void): void {
    this.#tally = count;
  }

  /** The calls held, oldest first, as they are (for a reader that builds its own view of them). */
  calls(): JournaledCall[] {
    const result: JournaledCall[] = [];
    for (let index = 0; index < this.#count; index++) result.push(this.#slots[(this.#start + index) % this.capacity]!);
    return result;
  }

  /** The call with this id, while the journal holds it. */
  call(id: number): JournaledCall | undefined {
    if (this.#count === 0) return undefined;
    const first = this.#slots[this.#start]!.id;
    // Ids grow by one per call pushed, so a held call's place follows from the oldest one's id.
    const offset = id - first;
    if (!Number.isInteger(offset) || offset < 0 || offset >= this.#count) return undefined;
    const slot = this.#slots[(this.#start + offset) % this.capacity]!;
    return slot.id === id ? slot : undefined;
  }

  /** The entries, oldest first, that pass the filter; each call builds fresh objects the caller may keep. */
  entries(filter: JournalFilter = {}): JournalEntry[] {
    const method = filter.method?.toUpperCase();
    const result: JournalEntry[] = [];
    for (let index = 0; index < this.#count; index++) {
      const slot = this.#slots[(this.#start + index) % this.capacity]!;
      if (method !== undefined && slot.method !== method) continue;
      const queryAt = slot.url.indexOf("?");
      const path = queryAt < 0 ? slot.url : slot.url.slice(0, queryAt);
      if (filter.path !== undefined && path !== filter.path) continue;
      result.push(journalEntryOf(slot, path, queryAt < 0 ? "" : slot.url.slice(queryAt + 1)));
    }
    return result;
  }

  /** Empties the journal. */
  clear(): void {
    for (let index = 0; index < this.#count; index++)
      this.#slots[(this.#start + index) % this.capacity]!.evicted = true;
    this.#slots = [];
    this.#start = 0;
    this.#count = 0;
    this.#bytes = 0;
    for (const listener of this.#listeners) listener("cleared", undefined);
  }

  #push(slot: Slot): void {
    if (this.#count === this.capacity) this.#evictOldest();
    this.#slots[(this.#start + this.#count) % this.capacity] = slot;
    this.#count++;
    this.#bytes += slot.size;
    this.#trim();
  }

  /** Drops the oldest entries while the journal holds more bytes than its budget (keeping the newest one). */
  #trim(): void {
    while (this.#bytes > JOURNAL_BYTE_BUDGET && this.#count > 1) this.#evictOldest();
  }

  #evictOldest(): void {
    const oldest = this.#slots[this.#start]!;
    oldest.evicted = true;
    this.#bytes -= oldest.size;
    this.#slots[this.#start] = undefined;
    this.#start = (this.#start + 1) % this.capacity;
    this.#count--;
  }
}

function headerBytes(headers: ArrivingRequest["headers"]): number {
  let size = 0;
  for (const name in headers) {
    const value = headers[name];
    size += name.length + (typeof value === "string" ? value.length : Array.isArray(value) ? value.join().length : 0);
  }
  return size;
}
