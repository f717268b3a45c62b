/** Fault rules as a plain service: strict validation, matching, counting down, bounds. */
import { describe, expect, it } from "vitest";
import { FaultRules, MAX_FAULT_RULES } from "../../src/mock/services/fault-rules.ts";

const path = "/api/v1/object/property";

describe("FaultRules.add", () => {
  it("numbers rules, upper-cases the method and lists them back", () => {
    const rules = new FaultRules();
    expect(rules.add({ method: "post", path, status: 503, times: 2 })).toEqual({ ok: true, value: { id: 1, method: "POST", path, status: 503, times: 2 } });
    expect(rules.add({ path, delay: 100 })).toEqual({ ok: true, value: { id: 2, path, delay: 100 } });
    expect(rules.list()).toEqual([
      { id: 1, method: "POST", path, status: 503, times: 2 },
      { id: 2, path, delay: 100 },
    ]);
  });

  it.each([
    [null, []],
    [[], []],
    ["503", []],
    [{}, ["/path"]],
    [{ path: "api" }, ["/path"]],
    [{ path: `${path}?x=1`, status: 503 }, ["/path"]],
    [{ path, status: 503, extra: 1 }, ["/extra"]],
    [{ path, status: "503" }, ["/status"]],
    [{ path, status: 200 }, ["/status"]],
    [{ path, status: 503.5 }, ["/status"]],
    [{ path, delay: -1 }, ["/delay"]],
    [{ path, delay: 600_000 }, ["/delay"]],
    [{ path, drop: "yes" }, ["/drop"]],
    [{ path, drop: true, status: 503 }, ["/drop"]],
    [{ path, status: 503, times: 0 }, ["/times"]],
    [{ path, status: 503, times: 1e9 }, ["/times"]],
    [{ path, method: "FETCH", status: 503 }, ["/method"]],
    [{ path }, ["/status"]],
    [{ path, drop: false }, ["/status"]],
    [{ method: 1, path: 2, status: 3 }, ["/path", "/method", "/status"]],
  ])("refuses %j, naming %j", (input, pointers) => {
    const rules = new FaultRules();
    const result = rules.add(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.problem).toBe("invalidFaultRule");
    expect((result.failure.errors ?? []).map((error) => error.pointer)).toEqual(pointers);
    expect(rules.list()).toEqual([]);
  });

  it(`keeps at most ${MAX_FAULT_RULES} rules`, () => {
    const rules = new FaultRules();
    for (let index = 0; index < MAX_FAULT_RULES; index++) expect(rules.add({ path, status: 500 }).ok).toBe(true);
    const refused = rules.add({ path, status: 500 });
    expect(!refused.ok && refused.failure.problem).toBe("tooManyFaultRules");
    expect(rules.list()).toHaveLength(MAX_FAULT_RULES);
    rules.clear();
    expect(rules.add({ path, status: 500 }).ok).toBe(true);
  });
});

describe("FaultRules.take", () => {
  it("applies the first matching rule, counts it down and drops it when used up", () => {
    const rules = new FaultRules();
    rules.add({ method: "POST", path, status: 503, times: 2 });
    rules.add({ path, delay: 5 });
    expect(rules.take("GET", "/api/v1/object/agent_cards")).toBeUndefined();
    expect(rules.take("GET", path)).toEqual({ id: 2, delay: 5 });
    expect(rules.take("POST", path)).toEqual({ id: 1, status: 503 });
    expect(rules.list()[0]).toMatchObject({ id: 1, times: 1 });
    expect(rules.take("POST", path)).toEqual({ id: 1, status: 503 });
    expect(rules.list().map((rule) => rule.id)).toEqual([2]);
    expect(rules.take("POST", path)).toEqual({ id: 2, delay: 5 });
    expect(rules.take("POST", `${path}/`)).toBeUndefined();
  });

  it("drops a connection, with a delay first when asked", () => {
    const rules = new FaultRules();
    rules.add({ path, drop: true, delay: 10, times: 1 });
    expect(rules.take("GET", path)).toEqual({ id: 1, drop: true, delay: 10 });
    expect(rules.take("GET", path)).toBeUndefined();
  });

  it("hands out copies: changing a listed rule changes nothing", () => {
    const rules = new FaultRules();
    rules.add({ path, status: 500, times: 1 });
    rules.list()[0]!.times = 99;
    rules.take("GET", path);
    expect(rules.list()).toEqual([]);
  });
});
