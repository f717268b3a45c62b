/**
 * `npm run bench -- --update-docs`: rewrites the generated part of docs/performance.md (between the markers
 * `<!-- bench:start -->` and `<!-- bench:end -->`) from a run's figures: the machine, the side-by-side table
 * with the peers, memory by store size, and each goal with its bound and its figure. The page is for the kit's
 * users: it shows what is promised and what was measured, not the goals' ids or verdicts, which the bench prints
 * for the team.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bytes, ms, ratio } from "./format.ts";
import type { BenchReport } from "./run-bench.ts";
import type { ServerFigure } from "./measure-servers.ts";
import type { Goal } from "./section.ts";
import type { GrowthFigures } from "./sections/35-growth.ts";
import { peerCells } from "./sections/20-peers.ts";

const PAGE = fileURLToPath(new URL("../../docs/performance.md", import.meta.url));
const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

/** Rewrites the section; returns what it did, for stderr. */
export function updatePerformancePage(report: BenchReport): string {
  const text = readFileSync(PAGE, "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return `docs/performance.md has no ${START} … ${END} section; nothing rewritten.`;
  writeFileSync(PAGE, `${text.slice(0, start + START.length)}\n${renderSection(report)}${text.slice(end)}`);
  return "docs/performance.md: generated section rewritten from this run.";
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

export function renderSection(report: BenchReport): string {
  const { environment, settings } = report;
  const lines = [
    `Measured by \`npm run bench\`${settings.quick ? " (--quick)" : ""} on ${environment.cpus} × ` +
      `${environment.cpuModel}, node ${environment.node}, ` +
      `load average ${environment.loadAverageAtStart.toFixed(1)} at the start.`,
    "",
  ];
  const peers = report.peers as
    | { request: string; startup: Array<{ server: string; medianMs: number }>; servers: ServerFigure[] }
    | undefined;
  if (peers) {
    const mock = peers.servers[0]!;
    const bare = peers.servers.find((entry) => entry.server === "bare node:http") ?? mock;
    const startOf = (name: string) => peers.startup.find((entry) => entry.server === name)?.medianMs;
    lines.push(
      `\`${peers.request}\`, each server a process:`,
      "",
      row(["server", "start-up", "throughput", "vs mock", "CPU per request", "vs bare node:http", "p50", "p99", "RSS"]),
      row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]),
      ...peers.servers.map((entry) => row(peerCells(entry, startOf(entry.server), mock, bare))),
      "",
      `\`npm start\` starts in ${ms(startOf("npm start") ?? Number.NaN)} (npm included), json-server in ` +
        `${ms(startOf("json-server") ?? Number.NaN)}.`,
      "",
    );
  }
  const growth = report.growth as GrowthFigures | undefined;
  if (growth) {
    lines.push(
      "Memory by store size (the bin on seeded fixtures; resident memory once quiet after start, and after a " +
        "GET of each of account 1's properties):",
      "",
      row([
        "properties",
        "fixtures file",
        "one property's JSON",
        "start-up",
        "RSS after start",
        "RSS after a GET of each",
        "bytes per property",
        "× its JSON",
      ]),
      row(["---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]),
      ...growth.points.map((point) =>
        row([
          point.properties.toLocaleString("en-US"),
          bytes(point.fixturesFileBytes),
          bytes(point.propertyJsonBytes),
          ms(point.startupMs),
          bytes(point.rssSettledBytes),
          bytes(point.rssAfterGetsBytes),
          point.bytesPerProperty === null ? "" : `${Math.round(point.bytesPerProperty).toLocaleString("en-US")} B`,
          point.bytesPerProperty === null ? "" : ratio(point.bytesPerProperty / point.propertyJsonBytes),
        ]),
      ),
      "",
      "Bytes per property: the larger resident figure less the smallest store's, per added property.",
      "",
    );
  }
  const container = report.container as
    | { imageBytes?: number; baseImage?: string; baseImageBytes?: number; baseIsStandIn?: boolean }
    | undefined;
  if (container?.imageBytes !== undefined && container.baseImageBytes !== undefined) {
    const base = container.baseIsStandIn
      ? `a stand-in for \`${container.baseImage}\` (CI reaches no registry: docs/docker.md)`
      : `\`${container.baseImage}\``;
    lines.push(
      `The Docker image is ${bytes(container.imageBytes)}, of which ` +
        `${bytes(container.imageBytes - container.baseImageBytes)} are the kit's own layers, built on ` +
        `${base}.`,
      "",
    );
  }
  lines.push(...renderFigures(report.goals));
  return lines.join("\n");
}

/**
 * The goals as a table for users: what is measured, its bound and the run's figure, in the bench's order; a figure
 * the run could not take says so. A goal that repeats another's figure under another id (the same measure, bound
 * and figure, its name only adding a reference in brackets) shows once, by the shorter name. No id or verdict:
 * those are the team's, in the bench's own output.
 */
export function renderFigures(
  goals: ReadonlyArray<Pick<Goal, "name" | "measured" | "target" | "unmeasured">>,
): string[] {
  if (goals.length === 0) return [];
  const shown = new Map<string, string[]>();
  for (const goal of goals) {
    const measured = goal.unmeasured ? "not measured" : goal.measured;
    const key = [goal.name.replace(/ \([^()]*\)$/, ""), goal.target, measured].join("\n");
    const earlier = shown.get(key)?.[0];
    shown.set(key, [
      earlier !== undefined && earlier.length < goal.name.length ? earlier : goal.name,
      goal.target,
      measured,
    ]);
  }
  return [
    row(["measured", "bound", "latest figure"]),
    row(["---", "---:", "---:"]),
    ...[...shown.values()].map(row),
    "",
  ];
}
