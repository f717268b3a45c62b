/**
 * The catalogue of problems (src/mock/problems.ts) and the spec hold together, both ways: every problem type the
 * mock can send is in the spec with its title and status, either as an example of a documented error answer
 * (components/responses, which the operations list) or, when only the mock sends it (its admin routes, the
 * steering a test asks for, its own failures), in the list x-mock-problems at the root of the spec; and everything
 * the spec shows of a problem is an entry of the catalogue.
 */
import { describe, expect, it } from "vitest";
import { PROBLEM_BASE, PROBLEMS, type ProblemType } from "../../src/mock/problems.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";

interface ProblemExample {
  type: string;
  title: string;
  status: number;
}
interface MockProblem extends ProblemExample {
  surface: string;
  when: string;
}
type ResponseObject = { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> };

const spec = loadSpec();
const components = (spec.components ?? {}) as { responses?: Record<string, ResponseObject> };
const responses = Object.entries(components.responses ?? {});
/** Each problem example of components/responses, with the response it is an example of. */
const shown = responses.flatMap(([name, response]) =>
  Object.values(response.content?.["application/problem+json"]?.examples ?? {}).map(
    (example) => [name, example.value as ProblemExample] as const,
  ),
);
const mockOnly = (spec as { "x-mock-problems"?: { problems?: MockProblem[] } })["x-mock-problems"]?.problems ?? [];

const sameEntry = (entry: ProblemType, found: ProblemExample): boolean =>
  entry.type === found.type && entry.title === found.title && entry.status === found.status;

/** What a reader of a failure must add to the spec for a catalogue entry it lacks, and where. */
function whatToAdd(key: string, entry: ProblemType): string {
  return [
    `PROBLEMS.${key} (${entry.type}, ${entry.status} ${entry.title}) is in src/mock/problems.ts but not in ` +
      `spec/openapi.yaml. Add it, then run \`npm run generate\`:`,
    `- if an operation of the API answers it for a reason of the service: as an example under ` +
      `components.responses.<Name>.content.application/problem+json.examples`,
    `  (value: { type: ${entry.type}, title: ${entry.title}, status: ${entry.status}, detail: … }) of a ` +
      `response the operations list under status ${entry.status}, or a new such response listed by them;`,
    `- if only the mock sends it (admin routes, /__db, Prefer or fault rules, its own failure): as an entry ` +
      `of x-mock-problems.problems (at the root of the document)`,
    `  ({ type: ${entry.type}, title: ${entry.title}, status: ${entry.status}, surface: api | admin | api ` +
      `and admin, when: … }).`,
  ].join("\n");
}

describe("the problem catalogue and the spec", () => {
  it("reads the spec's problem examples and the mock's own problems", () => {
    expect(shown.length).toBeGreaterThanOrEqual(10);
    expect(mockOnly.length).toBeGreaterThanOrEqual(13);
  });

  it.each(shown)("%s: its example is a catalogue entry, type, title and status alike", (_name, example) => {
    expect(example.type.startsWith(PROBLEM_BASE)).toBe(true);
    const entry = Object.values(PROBLEMS).find((problem) => problem.type === example.type);
    expect(entry, example.type).toEqual({ type: example.type, title: example.title, status: example.status });
  });

  it.each(mockOnly.map((problem) => [problem.type, problem] as const))(
    "x-mock-problems %s is a catalogue entry, type, title and status alike, with where it comes from",
    (type, problem) => {
      const entry = Object.values(PROBLEMS).find((candidate) => candidate.type === type);
      expect(entry, type).toEqual({ type, title: problem.title, status: problem.status });
      expect(["api", "admin", "api and admin"]).toContain(problem.surface);
      expect(problem.when.length).toBeGreaterThan(0);
    },
  );

  it.each(Object.entries(PROBLEMS))("PROBLEMS.%s is in the spec, with its title and status", (key, entry) => {
    const asExample = shown.some(([, example]) => sameEntry(entry, example));
    const asMockOnly = mockOnly.some((problem) => sameEntry(entry, problem));
    expect(asExample || asMockOnly, whatToAdd(key, entry)).toBe(true);
    // One place each: a problem an operation answers is the service's, not only the mock's.
    expect(
      asExample && asMockOnly,
      `${entry.type} is both an example of components/responses and in x-mock-problems of the spec: keep one`,
    ).toBe(false);
  });

  it("every problem example is answered under its own status by the operations that list its response", () => {
    const listedUnder = new Map<string, Set<string>>();
    for (const pathItem of Object.values(spec.paths ?? {})) {
      for (const operation of Object.values(
        pathItem as Record<string, { responses?: Record<string, { $ref?: string }> }>,
      )) {
        for (const [status, response] of Object.entries(operation?.responses ?? {})) {
          const name = response.$ref?.replace("#/components/responses/", "");
          if (name) listedUnder.set(name, (listedUnder.get(name) ?? new Set()).add(status));
        }
      }
    }
    const misplaced = shown
      .filter(
        ([name, example]) =>
          !listedUnder.has(name) || [...listedUnder.get(name)!].some((status) => status !== String(example.status)),
      )
      .map(
        ([name, example]) =>
          `${name}: ${example.type} (${example.status}) is listed under ` +
          `${[...(listedUnder.get(name) ?? [])].join(", ") || "no operation"}`,
      );
    expect(misplaced).toEqual([]);
  });
});
