/**
 * The mock playing a service profile (issue 20): GET of one property by the mock's bin with and without
 * `--profile`, three processes each, the runs in turn, as goal 2d compares --validate-responses. The profile
 * changes the answer on this path the most a profile can: another media type, three undocumented fields added,
 * and every error point replaced. Goal 20a.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { count, micros, percent, perSecond, ratio, ratioOf, table } from "../format.ts";
import {
  eachProcessLines,
  groupProcessesOf,
  measureInterleaved,
  measureOptionsOf,
  type Contender,
  type ServerFigure,
} from "../measure-servers.ts";
import type { RunningServer, ServerCommand } from "../processes.ts";
import { API, repeatedRequest } from "../scenarios.ts";
import type { BenchSection, Goal } from "../section.ts";
import { MOCK_LISTENING } from "../servers.ts";

const NID = 1001; // a property of the demo account in fixtures/db.json

export interface ProfileFigures {
  servers: ServerFigure[];
}

const provenance = { step: "bench", observedAt: "2026-01-01T00:00:00.000Z", runId: "bench" };
const error = (status: number, example: Record<string, string>) => ({
  ...provenance,
  statuses: [status],
  mediaTypes: ["application/json; charset=utf-8"],
  example,
  schema: {
    type: "object",
    properties: Object.fromEntries(Object.keys(example).map((key) => [key, { type: "string" }])),
    required: Object.keys(example),
  },
});

/** A profile that touches a GET of a property wherever a profile can. */
const PROFILE = {
  profileVersion: 1,
  runId: "bench",
  recordedAt: "2026-01-01T00:00:00.000Z",
  observations: {
    "media_type.success": { ...provenance, value: ["application/json;charset=UTF-8"] },
    "extra_fields.property": {
      ...provenance,
      fields: {
        language: { types: ["string"], example: "und" },
        revision_count: { types: ["string"], example: "3" },
        changed: { types: ["integer"], example: 1767225600 },
      },
    },
    "order.property_list": { ...provenance, value: "descending" },
    "error.not_found": error(404, { message: "not found" }),
    "error.unauthorized.missing": error(403, { error: "credentials", kind: "auth" }),
    "error.unauthorized.wrong": error(403, { error: "credentials", kind: "auth" }),
    "error.validation": error(422, { error: "invalid", kind: "validation" }),
  },
};

function mock(name: string, profile?: string): ServerCommand {
  return {
    name,
    command: process.execPath,
    args: (port) => [
      fileURLToPath(new URL("../../../dist/cli/mock.js", import.meta.url)),
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--quiet",
      ...(profile ? ["--profile", profile] : []),
    ],
    readyPath: "/healthz",
    readyLine: MOCK_LISTENING,
    spawnsServerItself: true,
  };
}

export const section: BenchSection<ProfileFigures> = {
  key: "profile",
  async run({ settings, progress, load, scratch, servers: pool }) {
    const failures: string[] = [];
    const file = join(scratch, "service-profile.json");
    // Processes on each side (measure-servers.ts), two runs each.
    const processes = groupProcessesOf(settings);
    const rounds = 2 * processes;
    writeFileSync(file, JSON.stringify(PROFILE));
    const running: RunningServer[] = [];
    try {
      progress("profile: starting the mock with and without --profile…");
      const [plainGroup, profiledGroup] = (await pool.startGroups(
        [mock("mock (bin)"), mock("mock --profile", file)],
        processes,
        running,
      )) as [RunningServer[], RunningServer[]];
      const [plain, ...plainReplicas] = plainGroup;
      const [profiled, ...profiledReplicas] = profiledGroup;
      const jobs = Math.max(1, Math.ceil(settings.requests / rounds));
      const step = { method: "GET" as const, path: `${API}/property/${NID}`, expect: 200 };
      const contenders: Contender[] = [
        { server: plain!, replicas: plainReplicas, scenario: repeatedRequest("GET property/{nid}", step, jobs) },
        { server: profiled!, replicas: profiledReplicas, scenario: repeatedRequest("GET property/{nid}", step, jobs) },
      ];
      progress(`profile: ${count(jobs * rounds)} requests to each, interleaved…`);
      const servers = await measureInterleaved(load, contenders, rounds, failures, measureOptionsOf(settings));
      const [withoutFigure, withFigure] = [
        servers.find((entry) => entry.server === plain!.name)!,
        servers.find((entry) => entry.server === profiled!.name)!,
      ];
      const value = withFigure.requestsPerSecond / withoutFigure.requestsPerSecond;
      const goals: Goal[] = [
        {
          id: "20a",
          name: "GET throughput with --profile / without",
          measured: ratio(value),
          target: "≥ 0.95×",
          pass: value >= 0.95,
        },
      ];
      const lines = [
        `GET of one property by the mock's bin with and without a service profile (another media type, three ` +
          `extra fields), ${processes} processes each, ${rounds} runs in turn`,
        "",
        ...table(
          ["server", "throughput", "vs without", "cost", "CPU/request", "vs without"],
          servers.map((entry) => [
            entry.server,
            `${perSecond(entry.requestsPerSecond)} req/s`,
            ratio(entry.requestsPerSecond / withoutFigure.requestsPerSecond),
            percent((1 - entry.requestsPerSecond / withoutFigure.requestsPerSecond) * 100),
            micros(entry.cpuMicrosPerRequest),
            ratioOf(entry.cpuMicrosPerRequest, withoutFigure.cpuMicrosPerRequest),
          ]),
          "lrrrrr",
        ),
        ...eachProcessLines(servers),
      ];
      return { figures: { servers }, lines, goals, failures };
    } finally {
      for (const server of running) await server.stop();
    }
  },
};
