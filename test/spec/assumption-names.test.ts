/**
 * Every assumption of the spec has a stable name beside its marker, one name per decision, so that usage files,
 * reports and Pact files keep naming the same decision when a marker is added elsewhere.
 */
import { describe, expect, it } from "vitest";
import { checkAssumptionNames, listAssumptions, type Assumption } from "../../src/spec/list-assumptions.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";

const spec = loadSpec();

describe("assumption names", () => {
  it("names every marker of the spec in kebab-case, one name per decision", () => {
    const assumptions = listAssumptions(spec);
    expect(assumptions.length).toBeGreaterThan(40);
    expect(checkAssumptionNames(assumptions)).toEqual([]);
    const byName = new Map(assumptions.map((assumption) => [assumption.id, assumption.pointer]));
    expect(byName.get("seat-limit-status")).toBe("/components/responses/NotEnoughAgentSeats");
    expect(byName.get("error-body-shape")).toBe("/components/schemas/Problem");
    expect(byName.get("never-set-defaults")).toBe("/components/schemas/NeverSetDefault");
  });

  it("marks the property fields the mock fills when no request set them as the never-set-defaults assumption", () => {
    const property = (
      spec.components!.schemas!.Property as { properties: Record<string, { allOf?: Array<{ $ref?: string }> }> }
    ).properties;
    for (const field of ["country", "half_baths", "lot_size_units", "intent", "api_author", "premise", "title"]) {
      expect(property[field]!.allOf, field).toContainEqual({ $ref: "#/components/schemas/NeverSetDefault" });
    }
  });

  it("refuses a marker without a name, a name not in kebab-case, one name for two decisions, two names for one", () => {
    const at = (id: string, text: string, pointer = "/components/schemas/X"): Assumption => ({
      id,
      marker: "x-assumption",
      pointer,
      text,
    });
    expect(checkAssumptionNames([at("", "a")])).toEqual([
      "components › schemas › X: x-assumption has no x-assumption-id",
    ]);
    expect(checkAssumptionNames([at("Seat_Limit", "a")])[0]).toMatch(/not a kebab-case name/);
    expect(checkAssumptionNames([at("one", "a"), at("one", "b", "/components/schemas/Y")])).toEqual([
      "components › schemas › Y: one already names another decision",
    ]);
    expect(checkAssumptionNames([at("one", "a"), at("two", "a", "/components/schemas/Y")])).toEqual([
      "components › schemas › Y: this decision is already named one, not two",
    ]);
    expect(checkAssumptionNames([at("one", "a"), at("one", "a", "/components/schemas/Y")])).toEqual([]);
  });
});
