/**
 * Every rule the contract checks at the fact tier cites the section of the interface document that states it
 * (issue 8): a schema constraint is either covered by an `x-assumption` or by an `x-section`, and a rule
 * without either is reported as an assumption, never as a fact.
 */
import { describe, expect, it } from "vitest";
import { compileValidators } from "../../src/contract/compile-validators.ts";
import { createContract } from "../../src/contract/create-contract.ts";
import { createSchemaExplainer } from "../../src/contract/schema-explainer.ts";
import { escapeToken, resolvePointer } from "../../src/spec/json-pointer.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";

const CONSTRAINTS = [
  "type",
  "enum",
  "const",
  "pattern",
  "format",
  "required",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "contains",
  "minProperties",
  "propertyNames",
  "if",
];
const SECTION = /^(introduction|[1-9](\.[0-9]+)?)$/;

describe("fact-tier citations", () => {
  const document = loadSpec();
  // Only the explainer's marker lookups are used here, so no validator is compiled.
  const explainer = createSchemaExplainer(document, compileValidators(document, []));

  it("covers every constraint an operation validates with a cited section or an assumption", () => {
    // Walks from every operation through its parameters, bodies and responses, following $refs; a marker on the
    // way (on the body, the response, or any schema above) covers everything below it.
    const uncited = new Set<string>();
    const visit = (node: unknown, pointer: string, covered: boolean, seen: Set<string>): void => {
      if (node === null || typeof node !== "object") return;
      const here =
        covered || explainer.assumptionAt(pointer) !== undefined || explainer.sectionAt(pointer) !== undefined;
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === "string" && ref.startsWith("#") && !seen.has(`${ref}:${here}`)) {
        visit(resolvePointer(document, ref.slice(1)), ref.slice(1), here, new Set([...seen, `${ref}:${here}`]));
      }
      if (!here && Object.keys(node).some((key) => CONSTRAINTS.includes(key))) uncited.add(pointer);
      for (const [key, child] of Object.entries(node)) {
        if (key === "examples" || key === "example" || key === "$ref") continue;
        visit(child, `${pointer}/${escapeToken(key)}`, here, seen);
      }
    };
    for (const [path, item] of Object.entries(document.paths))
      visit(item, `/paths/${escapeToken(path)}`, false, new Set());
    expect([...uncited]).toEqual([]);
  });

  it("cites sections that exist in the interface document", () => {
    const sections: string[] = [];
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== "object") return;
      const section = (node as Record<string, unknown>)["x-section"];
      if (section !== undefined) sections.push(String(section));
      for (const child of Object.values(node)) visit(child);
    };
    visit(document);
    expect(sections.length).toBeGreaterThan(30);
    expect(sections.filter((section) => !SECTION.test(section))).toEqual([]);
  });

  it("reports a spec rule citing no section as an assumption, and a cited one as a fact with its section", () => {
    const bare = structuredClone(document);
    delete (bare.components!.schemas!.Document as Record<string, unknown>)["x-section"];
    const exchange = {
      method: "GET",
      path: "/api/v1/object/document/4001",
      status: 200,
      headers: { "content-type": "application/json" },
      body: { nid: 4001 },
    };
    const cited = createContract({ document })
      .validateResponse(exchange)
      .errors.find((error) => error.location === "response.body/nid");
    const uncited = createContract({ document: bare })
      .validateResponse(exchange)
      .errors.find((error) => error.location === "response.body/nid");
    expect(cited).toMatchObject({ tier: "fact", section: "2.1" });
    expect(uncited).toMatchObject({ tier: "fact", section: "2.1" }); // IdString cites 2.1 itself
    const created = createContract({ document: bare })
      .validateResponse({ ...exchange, body: { nid: "4001" } })
      .errors.find((error) => error.location === "response.body/created");
    expect(created).toMatchObject({
      tier: "assumption",
      assumption: expect.stringContaining("No section of the interface document"),
    });
    const createdCited = createContract({ document })
      .validateResponse({ ...exchange, body: { nid: "4001" } })
      .errors.find((error) => error.location === "response.body/created");
    expect(createdCited).toMatchObject({ tier: "fact", section: "2.3" });
  });
});
