import type { PropertyRecord } from "./records.ts";

/** How the store's id sequences (nids, uids) follow the ids in its state: every id below a limit moves them on. */

/**
 * Ids from here up to 2^53-1 may be written raw but do not move the sequences: a record given the largest
 * exact id must not leave the sequence nowhere to go. Below this limit there are always 2^52 ids left, and the
 * sequences step over any id a raw record already holds.
 */
export const SEQUENCE_FEED_LIMIT = 2 ** 52;

/**
 * The larger of a sequence's maximum and an id. Anything but a positive integer below
 * {@link SEQUENCE_FEED_LIMIT} is ignored, so the sequence can never become NaN, inexact, or run out.
 */
export function largerId(max: number, id: unknown): number {
  return Number.isSafeInteger(id) && (id as number) > max && (id as number) < SEQUENCE_FEED_LIMIT
    ? (id as number)
    : max;
}

/** A sequence's value, which 2^52 ids of room keep exact; past 2^53-1 it would be a bug of the mock. */
export function exact(id: number): number {
  if (!Number.isSafeInteger(id)) throw new Error(`The id sequence passed 2^53-1 (${id})`);
  return id;
}

/**
 * The larger of a sequence's maximum and the nids of a property's virtual tours and videos, which are nodes of
 * the same sequence: counting them keeps a new record from reusing one. Reference fields (`main_image`, `logo`,
 * `edit_access`, `show_on_property`) name other nodes and never feed the sequence: a value written there must
 * not move it. It runs for every property at start-up, so it reads the nids in place rather than gathering them.
 */
export function largerNestedId(max: number, property: PropertyRecord): number {
  const tours = property.virtual_tours as unknown;
  if (tours !== null && typeof tours === "object" && !Array.isArray(tours)) {
    for (const key of Object.keys(tours))
      max = largerId(max, (tours as Record<string, { nid?: unknown } | null>)[key]?.nid);
  }
  const videos = property.property_videos as unknown;
  if (videos !== null && typeof videos === "object") {
    for (const key of Object.keys(videos))
      max = largerId(max, (videos as Record<string, { nid?: unknown } | null>)[key]?.nid);
  }
  return max;
}
