import { MAX_DELAY_MS } from "./delay-limit.ts";

/** A delay added to every API answer (`--latency`): fixed when `min` equals `max`, else uniformly random. */
export interface Latency {
  min: number;
  max: number;
}

/**
 * Reads `--latency 200` or `--latency 100-400` (whole milliseconds, at most {@link MAX_DELAY_MS}); a string
 * says what is wrong. json-server 0.17's `--delay` is the model for the fixed form.
 */
export function parseLatency(text: string): Latency | string {
  const match = /^([0-9]{1,6})(?:-([0-9]{1,6}))?$/.exec(text.trim());
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || min > MAX_DELAY_MS || max > MAX_DELAY_MS) {
    return `--latency must be milliseconds (200) or a range (100-400), each from 0 to ${MAX_DELAY_MS}, got ${text}`;
  }
  if (min > max) return `--latency range must go from the smaller to the larger value, got ${text}`;
  return { min, max };
}

/** One draw of the latency, with `random` returning numbers in [0, 1) like `Math.random`. */
export function pickLatency(latency: Latency, random: () => number): number {
  return latency.min + Math.floor(random() * (latency.max - latency.min + 1));
}
