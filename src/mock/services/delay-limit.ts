/**
 * The longest delay a test can ask the mock for, in milliseconds, whatever asks (`Prefer: delay`, a fault rule,
 * `--latency`, or all three at once). A delayed request holds only a timer and its socket, but an unbounded
 * delay lets a client keep connections open forever; a minute is longer than any client timeout worth testing.
 */
export const MAX_DELAY_MS = 60_000;
