/** The bin's request-log writer (src/cli/buffered-log.ts): lines gathered, in order, and written out at exit. */
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BufferedLog } from "../../src/cli/buffered-log.ts";

/** A sink that records each write, and a process that can be told to exit. */
function setUp() {
  const writes: string[] = [];
  const sink = Object.assign(new EventEmitter(), { write: (chunk: string) => writes.push(chunk) });
  const process = new EventEmitter();
  const log = new BufferedLog(sink).flushOnExit(process as unknown as NodeJS.Process);
  return { writes, sink, process, log };
}

describe("BufferedLog", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gathers lines and writes them together, in order, each ending in a newline, 10 ms after the first", () => {
    vi.useFakeTimers();
    const { writes, log } = setUp();
    for (let index = 0; index < 50; index++) log.line(`line ${index}`);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(9);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toBe(Array.from({ length: 50 }, (_, index) => `line ${index}\n`).join(""));
  });

  it("writes every waiting line when the process exits, before the timer", () => {
    const { writes, log, process } = setUp();
    log.line("answered just before the end");
    log.line("and this one");
    process.emit("exit", 1);
    expect(writes.join("")).toBe("answered just before the end\nand this one\n");
  });

  it("writes at once when 64 KiB wait, without waiting for the timer", () => {
    const { writes, log } = setUp();
    const line = "x".repeat(1023);
    for (let index = 0; index < 64; index++) log.line(line);
    expect(writes.join("")).toBe(`${line}\n`.repeat(64));
  });

  it("writes nothing more, and throws nothing, once the sink failed (the pipe's reader went away)", () => {
    const { writes, sink, log, process } = setUp();
    sink.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    expect(() => log.line("lost")).not.toThrow();
    process.emit("exit", 0);
    expect(writes).toEqual([]);
  });
});
