import type { JournalRecord, RequestJournal } from "../../mock/services/request-journal.ts";

/**
 * What `observe` needs of MSW's `setupServer()` or `setupWorker()`: its life-cycle events, MSW 2's public API
 * (`server.events.on("request:start", ({ request, requestId }) => ...)`), the same in Node and in a page.
 */
export interface ObservedNetwork {
  events: {
    // biome-ignore lint/suspicious/noExplicitAny: MSW types each event's listener apart; only any takes them all
    on(type: string, listener: (event: any) => void): unknown;
    // biome-ignore lint/suspicious/noExplicitAny: as for on
    removeListener(type: string, listener: (event: any) => void): unknown;
  };
}

/** The journal's side of MSW overrides: told which requests the mock answered, it records the others. */
export interface OverrideObserver {
  /** The mock's own resolver answers this request: the core journals it. */
  answered(requestId: string): void;
  /** Listens to the network's life-cycle events until the function returned is called. */
  observe(network: ObservedNetwork): () => void;
  /**
   * Resolves once every overridden request matched so far has its answer and body in the journal. In a page, MSW
   * reports the answer by a message from its worker that can come after the page's fetch resolved; in Node, the
   * answer is reported before. Waits at most `SETTLE_LIMIT_MS`, and not for a network no longer observed: those
   * entries keep no status.
   */
  settled(): Promise<void>;
}

/** Requests between their start and their answer kept at most: a network that never reports an end cannot grow it. */
const MAX_OPEN = 1000;

/**
 * How long `settled()` waits at most: a guard for a worker that will not report (stopped between the answer and its
 * report), far above the few milliseconds a report takes under load.
 */
export const SETTLE_LIMIT_MS = 5000;

interface Started {
  request: Request;
  started: number;
  /** The body, read from a clone as the request starts, before any handler reads it. */
  body: Promise<Uint8Array | undefined> | undefined;
}

/**
 * Records in the mock's journal the API requests a handler of the test's own answered (MSW's way to override one
 * operation: `server.use(http.get(...))` runs before the mock's handlers), marked `overridden`, with the status it
 * answered. MSW emits `request:start` before any handler runs, `request:match` once a handler answered, and
 * `response:mocked` (or `response:bypass` for a passthrough) with the answer; the mock's resolver says which
 * requests are its own, so that each request is journaled once.
 */
export function createOverrideObserver(options: {
  journal: RequestJournal;
  apiPath: (url: URL) => string | undefined;
}): OverrideObserver {
  const { journal } = options;
  const starting = new Map<string, Started>();
  /** Matched overridden requests awaiting their answer, with the network's events that report it. */
  const open = new Map<string, { record: JournalRecord; network: object }>();
  /** The reads of overridden requests' bodies not yet done. */
  const reading = new Set<Promise<unknown>>();
  let waiters: Array<() => void> = [];
  const keep = <T>(map: Map<string, T>, id: string, value: T) => {
    if (map.size >= MAX_OPEN) map.delete(map.keys().next().value!);
    map.set(id, value);
  };
  const release = () => {
    if (open.size > 0 || reading.size > 0) return;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };

  const onStart = ({ request, requestId }: { request: Request; requestId: string }) => {
    if (journal.capacity === 0) return; // a journal that keeps nothing: no body to read either
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return;
    }
    if (options.apiPath(url) === undefined) return;
    const body =
      request.body === null
        ? undefined
        : request
            .clone()
            .arrayBuffer()
            .then(
              (bytes) => new Uint8Array(bytes),
              () => undefined,
            );
    keep(starting, requestId, { request, started: performance.now(), body });
  };
  const onMatch = ({ requestId }: { requestId: string }, network: object) => {
    const start = starting.get(requestId);
    if (!start) return; // the mock's own answer, or not a request of the mock
    starting.delete(requestId);
    const url = new URL(start.request.url);
    const headers: Record<string, string> = {};
    start.request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.host ??= url.host;
    const record = journal.begin(
      { method: start.request.method.toUpperCase(), url: `${options.apiPath(url)}${url.search}`, headers },
      start.started,
      { overridden: true },
    );
    if (start.body) {
      const read = start.body.then((bytes) => {
        if (bytes && bytes.length > 0) record.body(bytes, headers["content-type"]);
        reading.delete(read);
        release();
      });
      reading.add(read);
    }
    keep(open, requestId, { record, network });
  };
  const onResponse = ({ requestId, response }: { requestId: string; response: Response }) => {
    const matched = open.get(requestId);
    if (!matched) return;
    open.delete(requestId);
    matched.record.finish(response.status);
    release();
  };
  const onEnd = ({ requestId }: { requestId: string }) => {
    // Unhandled or passed through without a match: nothing of the mock's to record.
    starting.delete(requestId);
  };

  const observed = new WeakSet<object>();
  return {
    answered(requestId) {
      starting.delete(requestId);
    },
    observe(network) {
      const events = network?.events;
      if (!events || typeof events.on !== "function")
        throw new TypeError("observe takes what setupServer() or setupWorker() returned (it listens to its events).");
      if (observed.has(events)) return () => {};
      observed.add(events);
      // biome-ignore lint/suspicious/noExplicitAny: the listeners of several event types, handed to on()
      const listeners: Array<[string, (event: any) => void]> = [
        ["request:start", onStart],
        ["request:match", (event) => onMatch(event, events)],
        ["request:end", onEnd],
        ["response:mocked", onResponse],
        ["response:bypass", onResponse],
      ];
      for (const [type, listener] of listeners) events.on(type, listener);
      return () => {
        for (const [type, listener] of listeners) events.removeListener(type, listener);
        observed.delete(events);
        // Nothing will report these answers now: they stay without a status, and nobody waits for them.
        for (const [requestId, matched] of open) if (matched.network === events) open.delete(requestId);
        release();
      };
    },
    settled() {
      if (open.size === 0 && reading.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const limit = setTimeout(resolve, SETTLE_LIMIT_MS);
        waiters.push(() => {
          clearTimeout(limit);
          resolve();
        });
      });
    },
  };
}
