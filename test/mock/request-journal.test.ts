/** The request journal as a plain service: order, filters, the ring, the byte bounds, lazy bodies. */
import { describe, expect, it } from "vitest";
import {
  JOURNAL_BYTE_BUDGET,
  MAX_JOURNAL_BODY_BYTES,
  RequestJournal,
} from "../../src/mock/services/request-journal.ts";

const json = "application/json";
let tick = 0;
const clocks = { now: () => Date.UTC(2026, 0, 1) + tick * 1000, clock: () => tick * 10 };

function arrive(journal: RequestJournal, method: string, url: string, headers: Record<string, string> = {}) {
  return journal.begin({ method, url, headers: { host: "127.0.0.1", ...headers } });
}

describe("RequestJournal", () => {
  it("records requests in arrival order, with query, headers, parsed body, status, time and duration", () => {
    tick = 0;
    const journal = new RequestJournal(10, clocks);
    const first = arrive(journal, "POST", "/api/v1/object/property?draft=1&tag=a&tag=b", { "content-type": json });
    const second = arrive(journal, "GET", "/api/v1/object/agent_cards");
    tick = 3;
    first.body(Buffer.from('{"street":"1 Main St"}'), json);
    second.finish(200);
    first.fault({ latency: 5 });
    first.finish(503);
    first.finish(200); // only the first answer counts
    expect(journal.entries()).toEqual([
      {
        method: "POST",
        path: "/api/v1/object/property",
        query: { draft: "1", tag: ["a", "b"] },
        headers: { host: "127.0.0.1", "content-type": json },
        body: { street: "1 Main St" },
        status: 503,
        time: "2026-01-01T00:00:00.000Z",
        durationMs: 30,
        fault: { latency: 5 },
      },
      expect.objectContaining({
        method: "GET",
        path: "/api/v1/object/agent_cards",
        query: {},
        body: null,
        status: 200,
        fault: null,
      }),
    ]);
  });

  it("shows a pending request with a null status and duration", () => {
    const journal = new RequestJournal(10);
    arrive(journal, "GET", "/api/v1/object/agent_cards");
    expect(journal.entries()[0]).toMatchObject({ status: null, durationMs: null });
  });

  it("keeps text bodies as text, and JSON that does not parse as its text", () => {
    const journal = new RequestJournal(10);
    arrive(journal, "POST", "/a").body(Buffer.from("street=1"), "application/x-www-form-urlencoded");
    arrive(journal, "POST", "/b").body(Buffer.from("{oops"), "application/json; charset=utf-8");
    expect(journal.entries().map((entry) => entry.body)).toEqual(["street=1", "{oops"]);
  });

  it("filters by method (any case) and exact path, combined", () => {
    const journal = new RequestJournal(10);
    arrive(journal, "POST", "/api/v1/object/property");
    arrive(journal, "GET", "/api/v1/object/property/1001");
    arrive(journal, "POST", "/api/v1/object/agent_card/");
    arrive(journal, "POST", "/api/v1/object/property?x=1");
    const paths = (filter: object) => journal.entries(filter).map((entry) => `${entry.method} ${entry.path}`);
    expect(paths({ method: "post" })).toEqual([
      "POST /api/v1/object/property",
      "POST /api/v1/object/agent_card/",
      "POST /api/v1/object/property",
    ]);
    expect(paths({ path: "/api/v1/object/property" })).toEqual([
      "POST /api/v1/object/property",
      "POST /api/v1/object/property",
    ]);
    expect(paths({ method: "GET", path: "/api/v1/object/property" })).toEqual([]);
  });

  it("is a ring: the newest entries are kept", () => {
    const journal = new RequestJournal(3);
    for (let index = 1; index <= 7; index++) arrive(journal, "GET", `/r${index}`).finish(200);
    expect(journal.entries().map((entry) => entry.path)).toEqual(["/r5", "/r6", "/r7"]);
    journal.clear();
    expect(journal.entries()).toEqual([]);
    arrive(journal, "GET", "/again");
    expect(journal.entries().map((entry) => entry.path)).toEqual(["/again"]);
  });

  it("keeps nothing with size 0", () => {
    const journal = new RequestJournal(0);
    arrive(journal, "GET", "/r").finish(200);
    expect(journal.entries()).toEqual([]);
  });

  it("cuts a long body and says so, keeping a copy of its start only", () => {
    const journal = new RequestJournal(10);
    const big = Buffer.from(JSON.stringify({ text: "x".repeat(100_000) }));
    arrive(journal, "POST", "/big").body(big, json);
    const [entry] = journal.entries();
    expect(entry).toMatchObject({ bodyTruncated: true, bodySize: big.length });
    expect(entry!.body).toBe(big.subarray(0, MAX_JOURNAL_BODY_BYTES).toString());
  });

  it("stays within its byte budget whatever the number of entries allowed", () => {
    const journal = new RequestJournal(100_000);
    const headers = { "x-pad": "p".repeat(8 * 1024) };
    const body = Buffer.alloc(64 * 1024, "a");
    const count = Math.ceil(JOURNAL_BYTE_BUDGET / (MAX_JOURNAL_BODY_BYTES + 8 * 1024)) + 50;
    for (let index = 0; index < count; index++) arrive(journal, "POST", `/r${index}`, headers).body(body, "text/plain");
    const kept = journal.entries();
    expect(kept.length).toBeLessThan(count);
    expect(kept.length * (MAX_JOURNAL_BODY_BYTES + 8 * 1024)).toBeLessThanOrEqual(JOURNAL_BYTE_BUDGET);
    expect(kept.at(-1)!.path).toBe(`/r${count - 1}`);
  });

  it("hands out fresh objects: changing an entry changes nothing kept", () => {
    const journal = new RequestJournal(10);
    arrive(journal, "POST", "/r?a=1").body(Buffer.from('{"a":1}'), json);
    const [entry] = journal.entries();
    (entry!.body as { a: number }).a = 2;
    entry!.query.a = "2";
    entry!.headers.host = "evil";
    expect(journal.entries()[0]).toMatchObject({ body: { a: 1 }, query: { a: "1" }, headers: { host: "127.0.0.1" } });
  });

  it("keeps hostile names as plain fields", () => {
    const journal = new RequestJournal(10);
    arrive(journal, "GET", "/r?__proto__=a&__proto__=b&constructor=c");
    const [entry] = journal.entries();
    expect(Object.getPrototypeOf(entry!.query)).toBe(Object.prototype);
    expect(Object.keys(entry!.query)).toEqual(["__proto__", "constructor"]);
    expect(JSON.parse(JSON.stringify(entry!.query))).toEqual(JSON.parse('{"__proto__":["a","b"],"constructor":"c"}'));
  });
});
