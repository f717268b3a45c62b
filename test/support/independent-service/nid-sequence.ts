/**
 * Sparse, large identifiers, one sequence per kind of record: how nids are allocated is not documented
 * (issue 8, item 3), so this implementation deliberately does not count 1, 2, 3.
 */

/** Hands out the next nid of one kind. */
export interface NidSequence {
  next(): number;
}

/**
 * Starts at `start` and steps by 7919. The kinds start at offsets that are not multiples of the step
 * (see NID_STARTS), so a property nid is never also an agent or document nid: a client that mixes them up
 * gets a 404 instead of a lucky hit.
 */
export function nidSequence(start: number, step = 7_919): NidSequence {
  let current = start - step;
  return {
    next: () => (current += step),
  };
}

/** First nid of each kind. */
export const NID_STARTS = { property: 500_000, agent: 600_011, document: 700_027 } as const;
