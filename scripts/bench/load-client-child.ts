/**
 * The load client's process (forked by `load-client.ts`): runs each scenario it is sent and answers its raw
 * figures; leaves when the parent disconnects.
 */
import { Agent, request as httpRequest } from "node:http";
import type { ClientReply, LoadRun, RunMessage } from "./load-client.ts";
import type { Step } from "./scenarios.ts";

/** The child's side: runs each scenario it is sent and answers its raw figures. Leaves when the parent disconnects. */
export function runLoadClient(): void {
  process.on("message", (message: unknown) => {
    const run = message as Partial<RunMessage>;
    if (run.kind !== "run" || typeof run.id !== "number") return;
    const id = run.id;
    runScenario(run as RunMessage).then(
      (figures) => process.send!({ kind: "done", id, ...figures } satisfies ClientReply),
      (error: unknown) =>
        process.send!({ kind: "crashed", id, message: (error as Error).stack ?? String(error) } satisfies ClientReply),
    );
  });
  process.on("disconnect", () => process.exit(0));
}

async function runScenario(run: RunMessage): Promise<Omit<LoadRun, "concurrency">> {
  const base = new URL(run.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: run.concurrency });
  const { scenario } = run;
  const failureSamples: string[] = [];
  let failures = 0;

  const phase = async (jobs: Step[][]) => {
    const latencies = new Array<number>(jobs.length);
    let bytes = 0;
    let next = 0;
    const connection = async (slot: number) => {
      // The service expects content-type: application/json on every operation, with or without a body.
      const headers: Record<string, string> =
        scenario.credentials === "demo"
          ? { ...run.demoCredentials, "content-type": "application/json" }
          : scenario.credentials === "none"
            ? {}
            : {
                "API-KEY": `bench-connection-${slot}`,
                TOKEN: `bench-token-${slot}`,
                "content-type": "application/json",
              };
      for (let index = next++; index < jobs.length; index = next++) {
        const started = performance.now();
        let nid = "";
        for (const step of jobs[index]!) {
          const path = step.path.replace("{nid}", nid);
          try {
            const answer = await send(agent, base, step.method, path, step.headers ?? headers, step.body);
            bytes += answer.body.length;
            if (
              typeof step.expect === "number" ? answer.status !== step.expect : !step.expect.includes(answer.status)
            ) {
              failures += 1;
              if (failureSamples.length < 3)
                failureSamples.push(
                  `${step.method} ${path} answered ${answer.status}: ${answer.body.toString("utf8", 0, 200)}`,
                );
              break;
            }
            if (step !== jobs[index]!.at(-1))
              nid = String((JSON.parse(answer.body.toString("utf8")) as { nid?: unknown }).nid ?? "");
          } catch (error) {
            failures += 1;
            if (failureSamples.length < 3)
              failureSamples.push(`${step.method} ${path} failed: ${(error as Error).message}`);
            break;
          }
        }
        latencies[index] = performance.now() - started;
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: run.concurrency }, (_, slot) => connection(slot)));
    return { wallMs: performance.now() - started, latencies, bytes };
  };

  await phase(scenario.jobs.slice(0, scenario.warmup));
  const measured = await phase(scenario.jobs.slice(scenario.warmup));
  agent.destroy();
  // Failures of the warm-up count too: any unexpected answer is a bug of the mock or of the benchmark.
  return { wallMs: measured.wallMs, latenciesMs: measured.latencies, bytes: measured.bytes, failures, failureSamples };
}

function send(
  agent: Agent,
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const request = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        headers: payload ? { ...headers, "content-length": String(payload.length) } : headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

runLoadClient();
