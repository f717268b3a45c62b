/**
 * The kit's browser module (issue 30, item 5): its size as a frontend's bundler ships it (esbuild, platform
 * browser, minified, gzipped; the default fixtures in, msw left out, since the page brings msw), and the rate of a
 * GET of one property through MSW's setupServer (msw/node) beside a bare MSW handler that returns the same bytes
 * with no logic, matched the same way: the limit of that host. Both run in this process, in interleaved rounds
 * (each side first in every other round), 16 requests in flight.
 * Goals 30a and 30b.
 */
import { http } from "msw";
import { setupServer } from "msw/node";
import { bundleForBrowser, splitBundleSizes } from "../../browser-bundle.ts";
import { createMockHandlers } from "../../../src/msw.ts";
import { bytes, count, perSecond, ratio, table } from "../format.ts";
import { mswRequestsOf, roundsOf, type BenchSection, type Goal } from "../section.ts";

const BASE = "http://bench.mock.test";
const PATH = "/api/v1/object/property/1001"; // a property of the demo account in fixtures/db.json
const HEADERS = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const IN_FLIGHT = 16;
/** Rounds in turn (one in a `--quick` run: section.ts, roundsOf). */
const ROUNDS = 6;
/** At most 200 KiB, minified and gzipped (issue 30). */
const SIZE_LIMIT = 200 * 1024;

export interface MswFigures {
  module: { minifiedBytes: number; gzipBytes: number; split?: { initialGzipBytes: number; lazyGzipBytes: number } };
  requestsPerRound: number;
  rounds: number;
  kitRequestsPerSecond: number;
  bareRequestsPerSecond: number;
}

/** Sends `total` GETs, `IN_FLIGHT` at a time; the elapsed milliseconds. Every answer must be 200. */
async function drive(total: number, failures: string[]): Promise<number> {
  const started = performance.now();
  let sent = 0;
  const lane = async () => {
    while (sent < total) {
      sent += 1;
      const response = await fetch(`${BASE}${PATH}`, { headers: HEADERS });
      await response.arrayBuffer();
      if (response.status !== 200 && failures.length < 5) failures.push(`msw: GET ${PATH} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return performance.now() - started;
}

export const section: BenchSection<MswFigures> = {
  key: "msw",
  async run({ settings, progress }) {
    const failures: string[] = [];
    progress("msw: bundling the browser module…");
    const bundle = await bundleForBrowser("src/msw.ts", { external: ["msw"] });
    if (!bundle.ok) throw new Error(`The browser module does not bundle for the browser:\n${bundle.errors.join("\n")}`);
    const split = await splitBundleSizes("src/msw.ts", ["msw"]);

    const mock = createMockHandlers({ baseUrl: BASE });
    const server = setupServer();
    server.listen({ onUnhandledRequest: "error" });
    // The bare handler answers the mock's own bytes and headers for this GET, with no logic.
    server.resetHandlers(...mock.handlers);
    const sample = await fetch(`${BASE}${PATH}`, { headers: HEADERS });
    const body = new Uint8Array(await sample.arrayBuffer());
    const contentType = sample.headers.get("content-type")!;
    // Matched as the kit's handler is matched (one regular expression over the URL), so that only the answering
    // differs.
    const bare = http.all(
      /^http:\/\/bench\.mock\.test\//,
      () => new Response(body, { status: 200, headers: { "content-type": contentType } }),
    );

    const { perRound, warmUp } = mswRequestsOf(settings);
    const rounds = roundsOf(settings, ROUNDS);
    let kitMs = 0;
    let bareMs = 0;
    for (const [label, handlers] of [
      ["mock", mock.handlers],
      ["bare", [bare]],
    ] as const) {
      server.resetHandlers(...handlers);
      progress(`msw: warming up ${label}…`);
      await drive(warmUp, failures);
    }
    for (let round = 0; round < rounds; round++) {
      progress(`msw: round ${round + 1}/${rounds}…`);
      // Each side goes first in every other round, so that a change of the machine's load falls on both alike.
      for (const side of round % 2 === 0 ? ["kit", "bare"] : ["bare", "kit"]) {
        if (side === "kit") {
          server.resetHandlers(...mock.handlers);
          kitMs += await drive(perRound, failures);
        } else {
          server.resetHandlers(bare);
          bareMs += await drive(perRound, failures);
        }
      }
    }
    server.close();
    mock.reset();

    const total = perRound * rounds;
    const kitRate = (total / kitMs) * 1000;
    const bareRate = (total / bareMs) * 1000;
    const goals: Goal[] = [
      {
        id: "30a",
        name: "browser module, minified + gzipped (default fixtures in, msw left out)",
        measured: bytes(bundle.gzipBytes),
        target: `≤ ${bytes(SIZE_LIMIT)}`,
        pass: bundle.gzipBytes <= SIZE_LIMIT,
      },
      {
        id: "30b",
        name: "GET through setupServer, kit's handlers / bare MSW handler (same bytes)",
        measured: ratio(kitRate / bareRate),
        target: "≥ 0.50×",
        pass: kitRate / bareRate >= 0.5,
      },
    ];
    const lines = [
      "MSW: the kit's browser module and its handlers under setupServer",
      "",
      `The module (src/msw.ts bundled by esbuild for the browser into one file, minified): ` +
        `${bytes(bundle.bytes)}, ${bytes(bundle.gzipBytes)} gzipped.`,
      ...(split
        ? [
            `Split as Vite and Rollup split it: ${bytes(split.initialGzipBytes)} gzipped at once, ` +
              `${bytes(split.lazyGzipBytes)} more when a service profile is read (AJV).`,
          ]
        : []),
      `GET of one property (${bytes(body.length)}) in this process, ${count(perRound)} requests per round, ` +
        `${rounds} rounds in turn, ${IN_FLIGHT} in flight:`,
      "",
      ...table(
        ["handlers", "throughput", "vs bare"],
        [
          ["kit (createMockHandlers)", perSecond(kitRate), ratio(kitRate / bareRate)],
          ["bare MSW handler, same bytes", perSecond(bareRate), ratio(1)],
        ],
        "lrr",
      ),
    ];
    return {
      figures: {
        module: { minifiedBytes: bundle.bytes, gzipBytes: bundle.gzipBytes, ...(split ? { split } : {}) },
        requestsPerRound: perRound,
        rounds,
        kitRequestsPerSecond: kitRate,
        bareRequestsPerSecond: bareRate,
      },
      lines,
      goals,
      failures,
    };
  },
};
