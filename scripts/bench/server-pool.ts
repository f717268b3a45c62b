/**
 * Where sections get the servers they start as processes. A full run starts every server afresh, in the order its
 * comparisons need (processes.ts). A `--quick` run, a look at the bench rather than its figures, lends the
 * processes of one program from section to section instead: a section asking for a program's processes gets those
 * already started and idle (under its own name for them), and only the ones missing are started; a section's
 * `stop()` hands them back, and the run stops them all at its end. Every section's code runs on them alike; each
 * start of the mock that a section times (start-up figures) is still a start of its own.
 */
import { startGroups, startServer, type RunningServer, type ServerCommand } from "./processes.ts";

export class ServerPool {
  /** Idle processes by program, and every process started here. */
  readonly #idle = new Map<string, RunningServer[]>();
  readonly #all: RunningServer[] = [];

  /** `lends`: whether processes are lent from section to section (a `--quick` run), or each started afresh. */
  constructor(readonly lends: boolean) {}

  /** A process of `command`'s program: an idle one where one is lent, else a new one (processes.ts, startServer). */
  async start(command: ServerCommand, deadlineMs?: number): Promise<RunningServer> {
    if (!this.lends) return startServer(command, deadlineMs);
    const idle = this.#idleOf(programOf(command)).shift();
    return this.#lend(command, idle ?? this.#keep(await startServer(command, deadlineMs)));
  }

  /** As processes.ts's startServers, each process from {@link start}. */
  async startServers(
    command: ServerCommand,
    count: number,
    running: RunningServer[],
    deadlineMs?: number,
  ): Promise<RunningServer[]> {
    return (await this.startGroups([command], count, running, deadlineMs))[0]!;
  }

  /** As processes.ts's startGroups (the commands in turn), each process from {@link start}. */
  startGroups(
    commands: readonly ServerCommand[],
    count: number,
    running: RunningServer[],
    deadlineMs?: number,
  ): Promise<RunningServer[][]> {
    return startGroups(commands, count, running, deadlineMs, (command, deadline) => this.start(command, deadline));
  }

  /**
   * A process a section started itself (a timed start) and is done with: stopped, or, where processes are lent,
   * kept idle for the next section that asks for its program.
   */
  async release(command: ServerCommand, server: RunningServer): Promise<void> {
    if (!this.lends) return server.stop();
    this.#keep(server);
    this.#idleOf(programOf(command)).push(server);
  }

  /** Stops every process kept; the end of the run. */
  async close(): Promise<void> {
    for (const server of this.#all.splice(0)) await server.stop();
    this.#idle.clear();
  }

  #idleOf(program: string): RunningServer[] {
    let idle = this.#idle.get(program);
    if (!idle) this.#idle.set(program, (idle = []));
    return idle;
  }

  #keep(server: RunningServer): RunningServer {
    if (!this.#all.includes(server)) this.#all.push(server);
    return server;
  }

  /** The process under the section's name for it; its `stop()` hands it back idle. */
  #lend(command: ServerCommand, server: RunningServer): RunningServer {
    const program = programOf(command);
    let lent = true;
    return {
      ...server,
      name: command.name,
      stop: async () => {
        if (!lent) return;
        lent = false;
        this.#idleOf(program).push(server);
      },
    };
  }
}

/** What makes two commands the same program: what runs, with which arguments, environment and readiness path. */
function programOf(command: ServerCommand): string {
  return JSON.stringify([command.command, command.args(0), command.env ?? {}, command.readyPath]);
}
