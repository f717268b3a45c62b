/**
 * The catalogue of problems (src/mock/problems.ts) and the spec's documented error answers (components/responses)
 * hold together: every problem the spec shows is an entry of the catalogue with the same type URI, title and
 * status.
 */
import { describe, expect, it } from "vitest";
import { PROBLEM_BASE, PROBLEMS } from "../../src/mock/problems.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";

interface ProblemExample { type: string; title: string; status: number }
const responses = Object.entries(loadSpec().components?.responses ?? {}) as Array<[string, { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> }]>;
const shown = responses.flatMap(([name, response]) =>
  Object.values(response.content?.["application/problem+json"]?.examples ?? {}).map((example) => [name, example.value as ProblemExample] as const),
);

describe("the problem catalogue and the spec", () => {
  it("reads the spec's problem examples", () => {
    expect(shown.length).toBeGreaterThanOrEqual(9);
  });

  it.each(shown)("%s: its example is a catalogue entry, type, title and status alike", (_name, example) => {
    expect(example.type.startsWith(PROBLEM_BASE)).toBe(true);
    const entry = Object.values(PROBLEMS).find((problem) => problem.type === example.type);
    expect(entry, example.type).toEqual({ type: example.type, title: example.title, status: example.status });
  });
});
