/**
 * The index of a store's ids (id-index.ts) answers as a Map would, whether its ids are dense (a typed array) or
 * not (a Map): held against a Map over random operations, with ids dense, ids far apart, and both.
 */
import { describe, expect, it } from "vitest";
import { IdIndex } from "../../src/mock/store/id-index.ts";
import { createPrng } from "../../scripts/bench/stats.ts";

function heldAgainstMap(seed: number, nextId: (draw: () => number) => number, operations: number): void {
  const draw = createPrng(seed); // seeded, so that a failure repeats
  const index = new IdIndex();
  const model = new Map<number, number>();
  for (let step = 0; step < operations; step++) {
    const id = nextId(draw);
    const roll = draw();
    if (roll < 0.6) {
      const slot = Math.floor(draw() * 2 ** 31);
      index.set(id, slot);
      model.set(id, slot);
    } else if (roll < 0.8) {
      expect(index.delete(id), `delete ${id} at step ${step}`).toBe(model.delete(id));
    } else if (roll < 0.801) {
      index.clear();
      model.clear();
    }
    expect(index.get(id), `get ${id} at step ${step}`).toBe(model.get(id));
    expect(index.has(id)).toBe(model.has(id));
    expect(index.size, `size at step ${step}`).toBe(model.size);
  }
  for (const [id, slot] of model) expect(index.get(id)).toBe(slot);
}

describe("IdIndex", () => {
  it("answers as a Map for dense ids, as a store gives them (one more each time, some deleted)", () => {
    let next = 1000;
    heldAgainstMap(1, (draw) => (draw() < 0.5 ? ++next : 1000 + Math.floor(draw() * (next - 999))), 20_000);
  });

  it("answers as a Map for ids spread over every safe integer, negative ones and 0 included", () => {
    const ids = [0, -1, 1, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 123_456_789_012];
    heldAgainstMap(2, (draw) => (draw() < 0.5 ? ids[Math.floor(draw() * ids.length)]! : Math.floor((draw() - 0.5) * 2 * Number.MAX_SAFE_INTEGER)), 5_000);
  });

  it("answers as a Map when dense ids are joined by one far away, and after a clear", () => {
    let next = 1;
    heldAgainstMap(3, (draw) => (draw() < 0.001 ? 10 ** 12 : draw() < 0.5 ? ++next : 1 + Math.floor(draw() * next)), 20_000);
  });

  it("answers nothing for what is not a held id: fractions, NaN, ids beyond either end", () => {
    const index = new IdIndex();
    for (let id = 1001; id <= 1100; id++) index.set(id, id - 1001);
    for (const id of [1000, 1101, 1000.5, Number.NaN, -1001, 2 ** 53, Infinity]) expect(index.get(id), String(id)).toBeUndefined();
    expect(index.get(1050)).toBe(49);
    expect(index.size).toBe(100);
  });
});
