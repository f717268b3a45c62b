/**
 * Servers started as processes, the way users start them: time from spawn to the first answer, and the CPU time
 * and memory of the server's own process, read from /proc (Linux).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomInt } from "node:crypto";
import { connect, createServer } from "node:net";

/** How to start one server, and which URL answers once it is ready. */
export interface ServerCommand {
  /** The name printed in tables: `mock (bin)`, `json-server`… */
  name: string;
  command: string;
  args: (port: number) => string[];
  /** The path polled until it answers (any status): start-up ends with the first answer. */
  readyPath: string;
  /** Headers of the readiness request (Prism answers a request without credentials, too). */
  readyHeaders?: Record<string, string>;
  /**
   * What the server prints on stdout once it listens, where it prints something: the first request is sent when
   * that line is seen, rather than after a poll of the port every 2 ms, which costs the machine the server shares
   * as much CPU as the server's own start. Start-up is still timed to the first answer.
   */
  readyLine?: RegExp;
  /**
   * Milliseconds between two probes of the port of a server that prints no such line: 2 unless its start-up is
   * not a figure of the bench (Prism's, seconds long, would spend the machine seconds of CPU at 2).
   */
  pollMs?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * Whether the spawned process is the server itself (true for `node file.js`), or a launcher whose child
   * serves (npm). CPU and memory are read only from a server's own process.
   */
  spawnsServerItself: boolean;
}

/** A started server. */
export interface RunningServer {
  name: string;
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first answer. */
  startupMs: number;
  /** The HTTP status of that first answer (a start is timed to the first answer of any status). */
  readyStatus: number;
  /**
   * CPU time of the process so far, in milliseconds: the run time of each of its threads from the scheduler, to
   * the microsecond, where the kernel keeps it; else user + system time in clock ticks (10 ms). See {@link cpuClock}.
   */
  cpuMs(): number;
  /** Resident set size now, in bytes. */
  rssBytes(): number;
  /** Peak resident set size since start or since the last `resetPeak`, in bytes. */
  peakRssBytes(): number;
  /** Starts a new peak (Linux: `5` to /proc/PID/clear_refs); false when the kernel refused. */
  resetPeak(): boolean;
  stop(): Promise<void>;
}

/** Variables the mock reads as settings: the bench's own environment must not change what it measures. */
const SETTINGS_VARIABLES = new Set(["BASE_URL", "PORT", "HOST", "MOCK_DB", "ADMIN_TOKEN", "ALLOWED_HOSTS"]);

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux for every architecture Node runs on

/** A way to read a process's CPU time, and the smallest difference it can see. */
export interface CpuClock {
  /** Milliseconds of CPU the process has used so far. */
  read(pid: number): number;
  /** The clock's resolution, in milliseconds: a difference below a few of these is not a measurement. */
  resolutionMs: number;
  name: string;
}

/**
 * The scheduler's run time of every thread of the process (`/proc/PID/task/TID/schedstat`, first field, in
 * nanoseconds). Node's threads (the main one, libuv's pool, V8's workers) live as long as the process, so their
 * sum is the process's CPU time, to the microsecond. A quick run's bare server spends a few milliseconds in all,
 * which the clock-tick counters of /proc/PID/stat (10 ms) read as 0 or 10.
 */
const schedstatClock: CpuClock = {
  name: "scheduler run time (/proc/PID/task/*/schedstat)",
  resolutionMs: 0.001,
  read(pid) {
    let nanoseconds = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        nanoseconds += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // the thread ended between the listing and the read
      }
    }
    return nanoseconds / 1e6;
  },
};

/** User + system time in clock ticks (fields 14 and 15 of /proc/PID/stat, counted after the command name). */
const statClock: CpuClock = {
  name: "user + system clock ticks (/proc/PID/stat)",
  resolutionMs: 1000 / CLOCK_TICKS_PER_SECOND,
  read: (pid) => statCpuMs(statFields(pid)),
};

/** The fields of /proc/PID/stat after the command name (which may hold spaces and parentheses): the state first. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** User + system time, in milliseconds, from {@link statFields}. */
function statCpuMs(fields: readonly string[]): number {
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The finest clock this kernel offers (schedstat needs CONFIG_SCHED_INFO, present in the usual kernels). */
export const cpuClock: CpuClock = (() => {
  try {
    const first = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(" ")[0];
    return Number(first) > 0 ? schedstatClock : statClock;
  } catch {
    return statClock;
  }
})();

/** Starts a server and waits for its first answer (at most `deadlineMs`). */
export async function startServer(command: ServerCommand, deadlineMs = 60_000): Promise<RunningServer> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command.command, command.args(port), {
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !SETTINGS_VARIABLES.has(name))),
      ...command.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  let stdout = "";
  let sawReadyLine!: () => void;
  const readyLineSeen = new Promise<void>((resolve) => (sawReadyLine = resolve));
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-2_000)));
  // read, so a chatty server never blocks on a full pipe
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    if (command.readyLine?.test(stdout)) sawReadyLine();
    stdout = stdout.slice(-2_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  if (command.readyLine) {
    // Until the line, an exit or the deadline, whichever comes first; the loop below tells which it was.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([readyLineSeen, exited, new Promise((resolve) => (timer = setTimeout(resolve, deadlineMs)))]);
    clearTimeout(timer);
  }
  let readyStatus: number;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${command.name} exited before answering:\n${stderr}`);
    if (performance.now() - started > deadlineMs) {
      const seen = processState(child.pid!);
      kill(child);
      throw new Error(
        `${command.name} did not answer ${url}${command.readyPath} within ${deadlineMs} ms (${seen}); its ` +
          `output:\n${stdout}\n${stderr}`,
      );
    }
    // A refused connection costs a fetch far more CPU than a bare connect (the whole request is built and
    // thrown away each time), and the polling shares the machine with the server it times: so the port is
    // probed until it takes a connection, and only then is the first request sent.
    if (!(await accepts(port))) {
      await new Promise((resolve) => setTimeout(resolve, command.pollMs ?? 2));
      continue;
    }
    try {
      // Each attempt bounded, so that a connection that never answers cannot take the whole deadline.
      const answer = await fetch(url + command.readyPath, {
        headers: command.readyHeaders ?? {},
        signal: AbortSignal.timeout(5_000),
      });
      await answer.arrayBuffer();
      readyStatus = answer.status;
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  const startupMs = performance.now() - started;
  const pid = child.pid!;
  const status = (field: string) =>
    Number(
      /(\d+) kB/.exec(
        readFileSync(`/proc/${pid}/status`, "utf8")
          .split("\n")
          .find((line) => line.startsWith(field)) ?? "",
      )?.[1] ?? NaN,
    ) * 1024;
  return {
    name: command.name,
    url,
    pid,
    startupMs,
    readyStatus,
    cpuMs: () => cpuClock.read(pid),
    rssBytes: () => status("VmRSS:"),
    peakRssBytes: () => status("VmHWM:"),
    resetPeak() {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, "5");
        return true;
      } catch {
        return false;
      }
    },
    async stop() {
      kill(child);
      await exited;
    },
  };
}

/** Whether something on 127.0.0.1 takes a TCP connection on `port` now; the connection is closed at once. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts `count` processes of the same server, one after another, each added to `running` as soon as it answers
 * (so that the caller's cleanup stops it even if a later one fails to start).
 */
export async function startServers(
  command: ServerCommand,
  count: number,
  running: RunningServer[],
  deadlineMs?: number,
): Promise<RunningServer[]> {
  return (await startGroups([command], count, running, deadlineMs))[0]!;
}

/**
 * Starts `count` processes of each command, taking the commands in turn (A, B, A, B, …), each added to `running`
 * as soon as it answers. Two groups compared with each other are so started alike: when one group was started
 * whole after the other, after the peers section had run, the group started second answered 0.84-0.88× the
 * throughput of the first at equal CPU per request, whichever program it was. Each process comes from `start`: a
 * new one by default, or one a quick run lends (server-pool.ts).
 */
export async function startGroups(
  commands: readonly ServerCommand[],
  count: number,
  running: RunningServer[],
  deadlineMs?: number,
  start: (command: ServerCommand, deadlineMs?: number) => Promise<RunningServer> = startServer,
): Promise<RunningServer[][]> {
  const groups = commands.map(() => [] as RunningServer[]);
  for (let index = 0; index < count; index++) {
    for (const [group, command] of commands.entries()) {
      const server = await start(command, deadlineMs);
      running.push(server);
      groups[group]!.push(server);
    }
  }
  return groups;
}

/** A process's state and CPU time as the kernel tells them, for a start that never answered: busy, or waiting. */
function processState(pid: number): string {
  try {
    const fields = statFields(pid);
    return `state ${fields[0]}, ${Math.round(statCpuMs(fields))} ms of CPU`;
  } catch {
    return "no longer running";
  }
}

/** Ends the process and its group (npm's child too). */
function kill(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * A port nobody listens on right now, drawn at random below the ephemeral ranges (Linux 32768-60999, others 49152
 * and up) and below the slices the test suite's own servers draw from (20000-31999): a port the system handed out
 * for port 0 and took back could go to another program's outgoing connection before the server binds it, which
 * one from here cannot (the bench runs beside other test files in the suite).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = PORTS.from + randomInt(PORTS.to - PORTS.from);
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (bound) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return port;
    }
  }
  throw new Error(`No free port in ${PORTS.from}-${PORTS.to - 1} after 100 tries`);
}

const PORTS = { from: 10_000, to: 20_000 };

/**
 * Waits until a started server has finished what it does by itself after its first answer (the mock encodes
 * every property's answer between requests then): until its CPU time grows by less than a millisecond in each of
 * three windows of 100 ms in a row, at most `deadlineMs`. A server that does more once it has been idle a while
 * (the mock's bin gives memory back after `idleWorkAfterMs`: src/cli/reclaim-when-idle.ts) is then left idle that
 * long, and a tick more, and waited for until quiet again. Answers the time it waited.
 */
export async function settled(server: RunningServer, deadlineMs = 60_000, idleWorkAfterMs = 0): Promise<number> {
  const started = performance.now();
  await quietFor(server, started + deadlineMs);
  if (idleWorkAfterMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, idleWorkAfterMs + 2_500));
    await quietFor(server, performance.now() + deadlineMs);
  }
  return performance.now() - started;
}

async function quietFor(server: RunningServer, deadline: number): Promise<void> {
  let quiet = 0;
  let before = server.cpuMs();
  while (quiet < 3 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = server.cpuMs();
    quiet = now - before < 1 ? quiet + 1 : 0;
    before = now;
  }
}
