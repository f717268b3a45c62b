/**
 * The contract as generated at build time (`npm run generate`: the document as JSON, AJV's standalone
 * validators) against the contract compiled from the YAML at run time: for both readings, the same verdict and
 * the same violations, located and tagged with the same assumptions, on valid answers and on broken ones.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createContract, type ResponseExchange } from "../../src/contract/create-contract.ts";
import { loadPrebuiltSpec } from "../../src/contract/prebuilt-contract.ts";
import { DEFAULT_SEED, generateFixtures, FIXTURE_ACCOUNTS } from "../../src/fixtures/generate-fixtures.ts";
import { TEMPLATE_CATALOGUE } from "../../src/mock/services/template-catalogue.ts";
import { projectAgent, projectProperty } from "../../src/mock/store/project-records.ts";
import { DEFAULT_SPEC_PATH, loadSpec } from "../../src/spec/load-spec.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const db = generateFixtures({ seed: DEFAULT_SEED, properties: 5 });
const record = db.properties[0]!;
const property = projectProperty(
  record,
  db.documents.filter((document) => document.property_reference === record.id),
);
const agent = projectAgent(db.agents.find((candidate) => candidate.uid === FIXTURE_ACCOUNTS[0]!.id)!);
const json = { "content-type": "application/json" };
const answers: ResponseExchange[] = [
  { method: "GET", path: `/api/v1/object/property/${property.nid}`, status: 200, headers: json, body: property },
  {
    method: "GET",
    path: "/api/v1/object/template_base",
    status: 200,
    headers: json,
    body: { templates: [...TEMPLATE_CATALOGUE] },
  },
  { method: "POST", path: `/api/v1/object/agent_card/${agent.id}`, status: 200, headers: json, body: agent },
];

/** A JSON value with one place changed: a field replaced, removed or added, somewhere in the tree. */
function mutated(value: unknown): fc.Arbitrary<unknown> {
  const copy = structuredClone(value) as Record<string, unknown>;
  const keys = Object.keys(copy);
  return fc.oneof(
    fc
      .record({ key: fc.constantFrom(...keys), replacement: fc.jsonValue({ maxDepth: 2 }) })
      .map(({ key, replacement }) => ({ ...copy, [key]: replacement })),
    fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(copy).filter(([name]) => name !== key))),
    fc
      .record({ key: fc.string({ maxLength: 6 }), extra: fc.jsonValue({ maxDepth: 1 }) })
      .map(({ key, extra }) => ({ ...copy, [key]: extra })),
    ...keys
      .filter((key) => copy[key] !== null && typeof copy[key] === "object")
      .map((key) => mutated(copy[key]).map((inner) => ({ ...copy, [key]: inner }))),
  );
}

describe("the contract generated at build time", () => {
  for (const closed of [false, true]) {
    it(`gives the verdicts and violations of the contract made from YAML (${closed ? "closed" : "open"})`, () => {
      const prebuilt = createContract({ closed });
      const compiled = createContract({ document: loadSpec(), closed });
      expect(prebuilt.document).toEqual(compiled.document);
      for (const answer of answers) {
        expect(prebuilt.validateResponse(answer)).toEqual({
          valid: true,
          errors: [],
          operationId: expect.any(String),
        });
        fc.assert(
          fc.property(mutated(answer.body), (body) => {
            const exchange = { ...answer, body };
            expect(prebuilt.validateResponse(exchange)).toEqual(compiled.validateResponse(exchange));
          }),
          { numRuns: 150, seed: 9 },
        );
      }
      const create = {
        method: "POST",
        path: "/api/v1/object/property",
        headers: { ...json, "API-KEY": "k", TOKEN: "t" },
      };
      fc.assert(
        fc.property(
          mutated({
            street: "1 Main St",
            city: "Austin",
            state: "TX",
            zip: "78701",
            bedrooms: 3,
            garage: "Attached",
          }),
          (body) => {
            expect(prebuilt.validateRequest({ ...create, body })).toEqual(
              compiled.validateRequest({ ...create, body }),
            );
          },
        ),
        { numRuns: 150, seed: 9 },
      );
    });
  }

  it("finds the assumption behind a violation, as the compiled contract does", () => {
    const broken = { ...answers[0]!, body: { ...property, property_type: "Single Family" } };
    const errors = createContract({ closed: true }).validateResponse(broken).errors;
    expect(errors).toEqual(createContract({ document: loadSpec(), closed: true }).validateResponse(broken).errors);
    expect(errors.some((error) => error.tier === "assumption" && error.assumption)).toBe(true);
  });

  it("is used only while it matches spec/openapi.yaml: an edited spec is parsed and compiled instead", () => {
    expect(loadPrebuiltSpec()?.document).toEqual(loadSpec());
    const edited = join(scratchFolder("plk-spec-"), "openapi.yaml");
    copyFileSync(DEFAULT_SPEC_PATH, edited);
    expect(loadPrebuiltSpec(edited)).toBeDefined();
    writeFileSync(edited, `${readFileSync(edited, "utf8")}\n# edited\n`);
    expect(loadPrebuiltSpec(edited)).toBeUndefined();
  });
});
