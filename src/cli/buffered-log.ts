/** Where the lines go: `process.stdout`, or anything with the same `write` (a test's stream). */
export interface LineSink {
  write(chunk: string): unknown;
  on?(event: "error", listener: (error: Error) => void): unknown;
}

/** The longest a line waits before it is written: a person reading the log does not see the difference. */
const FLUSH_AFTER_MS = 10;
/** Bytes gathered before they are written at once, without waiting for the timer. */
const MAX_PENDING = 64 * 1024;

/**
 * The request log's writer: lines are gathered and written together at most 10 ms after the first of them (or as
 * soon as 64 KiB wait), instead of one `console.log` and one write to the terminal, pipe or file per request. A
 * write per line cost the logging mock a large share of its throughput (docs/performance.md): `console.log`'s own
 * work, then a system call that wakes the pipe's reader; one write per turn of the event loop still cost CPU, as
 * the mock answers only a few requests per turn. Gathered over 10 ms, tens of lines go in one write under load.
 *
 * Nothing written is lost when the process ends: `flush()` writes what waits, synchronously (process.stdout is
 * synchronous for files and terminals, and on Linux for pipes too; on macOS and Windows a pipe is written
 * asynchronously, as `console.log` writes it), and {@link BufferedLog.flushOnExit} calls it on
 * every exit the process sees: `process.exit()` (after SIGINT or SIGTERM, the bin's stop), the end of the event
 * loop, and a crash (an uncaught exception or rejection exits through the same `exit` event). Only a SIGKILL, which
 * no process sees, can lose the lines of the last 10 ms.
 *
 * A sink that fails (the reader of a pipe went away) drops the lines from then on; the mock keeps serving, as it
 * did with `console.log`, which ignores such errors too.
 */
export class BufferedLog {
  readonly #sink: LineSink;
  #pending = "";
  #scheduled = false;
  #broken = false;

  constructor(sink: LineSink = process.stdout) {
    this.#sink = sink;
    sink.on?.("error", () => {
      this.#broken = true;
      this.#pending = "";
    });
  }

  /** Adds a line (without its newline); it is written within 10 ms. */
  line(text: string): void {
    if (this.#broken) return;
    this.#pending += `${text}\n`;
    if (this.#pending.length >= MAX_PENDING) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      // Unreferenced: waiting lines never keep the process alive, and its exit writes them (flushOnExit).
      setTimeout(this.#flushScheduled, FLUSH_AFTER_MS).unref();
    }
  }

  /** Writes every line waiting, now. */
  flush(): void {
    if (this.#pending === "" || this.#broken) return;
    const chunk = this.#pending;
    this.#pending = "";
    try {
      this.#sink.write(chunk);
    } catch {
      this.#broken = true;
    }
  }

  /** Flushes on every exit of the process the runtime tells of (see the class). */
  flushOnExit(target: Pick<NodeJS.Process, "on"> = process): this {
    target.on("exit", () => this.flush());
    return this;
  }

  readonly #flushScheduled = (): void => {
    this.#scheduled = false;
    this.flush();
  };
}
