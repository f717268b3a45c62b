/**
 * `GET /__admin/events`, the live journal the console follows, over a real socket: each call shows as it
 * arrives and once it is answered, a reset says the journal was emptied, the admin guard holds (token included,
 * and the token never reaches the request log), and the number of consoles is bounded, one that leaves making
 * room for another.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { createConsoleEvents, MAX_CONSOLE_VIEWERS, MAX_VIEWER_BACKLOG } from "../../src/hosts/node/console-events.ts";
import { RequestJournal } from "../../src/mock/services/request-journal.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { DEMO, tinyFixtures } from "../support/tiny-fixtures.ts";
import { HANG_MS } from "../support/deadlines.ts";

const TOKEN = "console-admin-secret";

interface Viewer {
  status: number;
  /** The next event that passes the test, waiting for it. */
  next(test: (event: { event: string; data: unknown }) => boolean): Promise<{ event: string; data: unknown }>;
  close(): void;
}

async function follow(url: string, headers: Record<string, string> = {}): Promise<Viewer> {
  const controller = new AbortController();
  const answer = await fetch(`${url}/__admin/events`, { headers, signal: controller.signal });
  const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    status: answer.status,
    async next(test) {
      for (;;) {
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) {
            const parsed = { event, data: JSON.parse(data) as unknown };
            if (test(parsed)) return parsed;
          }
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffer += value;
      }
    },
    close: () => controller.abort(),
  };
}

describe("the live journal (server-sent events)", () => {
  const log: string[] = [];
  const mock = createMockServer({
    fixtures: tinyFixtures(),
    contract: sharedContract(),
    validateResponses: true,
    adminToken: TOKEN,
    log: (line) => log.push(line),
  });
  const auth = { authorization: `Bearer ${TOKEN}` };
  let url = "";
  beforeAll(async () => {
    ({ url } = await mock.listen(0));
  });
  afterAll(() => mock.close());

  it("sends each call as it arrives and once answered, and a reset's emptying", { timeout: HANG_MS }, async () => {
    const viewer = await follow(url, auth);
    expect(viewer.status).toBe(200);
    await viewer.next(({ event }) => event === "ready");
    const answered = fetch(`${url}/api/v1/object/property`, {
      method: "POST",
      headers: { ...DEMO, "content-type": "application/json" },
      body: JSON.stringify({ street: "1 Main St" }),
    });
    const arrived = await viewer.next(({ event }) => event === "call");
    expect(arrived.data).toMatchObject({ method: "POST", url: "/api/v1/object/property", status: null });
    const over = await viewer.next(
      ({ event, data }) => event === "call" && (data as { status: number | null }).status !== null,
    );
    expect(over.data).toMatchObject({ operationId: "createProperty", status: 400, uid: 1 });
    expect((over.data as { errors: Array<{ pointer: string }> }).errors.map((error) => error.pointer).sort()).toEqual([
      "/city",
      "/state",
      "/zip",
    ]);
    expect((await answered).status).toBe(400);
    await fetch(`${url}/__admin/reset`, { method: "POST", headers: auth });
    await viewer.next(({ event }) => event === "cleared");
    viewer.close();
    expect(log.join("\n")).not.toContain(TOKEN);
    expect(log.join("\n")).not.toContain("demo-token");
  });

  it("refuses a console without the token, or from another origin", async () => {
    expect((await fetch(`${url}/__admin/events`)).status).toBe(401);
    expect(
      (await fetch(`${url}/__admin/events`, { headers: { ...auth, origin: "http://elsewhere.example" } })).status,
    ).toBe(403);
    expect(
      (
        await fetch(`${url}/__admin/events`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(405);
  });

  it(`follows at most ${MAX_CONSOLE_VIEWERS} consoles; one that leaves is dropped and makes room`, {
    timeout: HANG_MS,
  }, async () => {
    const viewers: Viewer[] = [];
    for (let index = 0; index < MAX_CONSOLE_VIEWERS; index++) {
      const viewer = await follow(url, auth);
      expect(viewer.status).toBe(200);
      await viewer.next(({ event }) => event === "ready");
      viewers.push(viewer);
    }
    const refused = await fetch(`${url}/__admin/events`, { headers: auth });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { type: string }).type).toMatch(/too-many-console-viewers$/);
    viewers.pop()!.close();
    // The mock learns of the closed connection on its own turn: asked again until it has.
    let admitted: Viewer | undefined;
    await expect
      .poll(
        async () => {
          const viewer = await follow(url, auth);
          if (viewer.status === 200) admitted = viewer;
          else viewer.close();
          return viewer.status;
        },
        { timeout: HANG_MS },
      )
      .toBe(200);
    // Every console still following sees the next call.
    const seen = [...viewers, admitted!].map((viewer) =>
      viewer.next(({ event, data }) => event === "call" && (data as { status: number | null }).status === 200),
    );
    await fetch(`${url}/api/v1/object/template_base`, { headers: { ...DEMO, "content-type": "application/json" } });
    expect(await Promise.all(seen)).toHaveLength(MAX_CONSOLE_VIEWERS);
    for (const viewer of [...viewers, admitted!]) viewer.close();
  });
});

describe("a console that reads slower than the mock writes", () => {
  /** A response whose client reads nothing: every write after the first waits, and its bytes are counted. */
  function stalledResponse(): ServerResponse & { text: () => string } {
    const chunks: string[] = [];
    const writable = new Writable({
      write(chunk: Buffer, _encoding, _done) {
        chunks.push(chunk.toString()); // never done: the client does not read
      },
    });
    return Object.assign(writable, {
      writeHead: () => writable,
      text: () => chunks.join(""),
    }) as unknown as ServerResponse & { text: () => string };
  }
  /** A response whose client reads everything at once. */
  function readingResponse(): ServerResponse & { text: () => string } {
    const chunks: string[] = [];
    const writable = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    return Object.assign(writable, {
      writeHead: () => writable,
      text: () => chunks.join(""),
    }) as unknown as ServerResponse & { text: () => string };
  }
  const request = () =>
    Object.assign(new PassThrough(), {
      method: "GET",
      url: "/__admin/events",
      headers: { host: "127.0.0.1:4010" },
    }) as unknown as IncomingMessage;

  it(`is let go once ${MAX_VIEWER_BACKLOG} bytes wait for it, while the others go on`, () => {
    const journal = new RequestJournal(10);
    const events = createConsoleEvents(journal);
    const slow = stalledResponse();
    const fast = readingResponse();
    events(request(), slow);
    events(request(), fast);
    let calls = 0;
    while (!slow.destroyed && calls < 10_000) {
      journal.begin({ method: "GET", url: `/api/v1/object/property/${calls}`, headers: {} }).finish(200);
      calls++;
    }
    expect(slow.destroyed).toBe(true);
    expect(slow.writableLength).toBeGreaterThan(MAX_VIEWER_BACKLOG);
    expect(slow.writableLength).toBeLessThan(MAX_VIEWER_BACKLOG + 4096);
    journal.begin({ method: "GET", url: "/api/v1/object/template_base", headers: {} }).finish(200);
    expect(fast.text()).toContain('"url":"/api/v1/object/template_base"');
    expect(fast.text().split("event: call").length - 1).toBe(calls * 2 + 2);
  });
});
