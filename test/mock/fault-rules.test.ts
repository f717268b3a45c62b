/** Fault rules as a plain service: strict validation, matching, counting down, bounds. */
import { describe, expect, it } from "vitest";
import { FaultRules, MAX_FAULT_RULES } from "../../src/mock/services/fault-rules.ts";

const path = "/api/v1/object/property";

describe("FaultRules.add", () => {
  it("numbers rules, upper-cases the method and lists them back", () => {
    const rules = new FaultRules();
    expect(rules.add({ method: "post", path, status: 503, times: 2 })).toEqual({
      ok: true,
      value: { id: 1, method: "POST", path, status: 503, times: 2 },
    });
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

describe("FaultRules with the contract's operations", () => {
  const routes = [
    { method: "GET", pathTemplate: "/api/v1/object/property/{nid}" },
    { method: "PUT", pathTemplate: "/api/v1/object/property/{nid}" },
    { method: "POST", pathTemplate: "/api/v1/object/property" },
    { method: "POST", pathTemplate: "/api/v1/object/agent_card/" },
    { method: "GET", pathTemplate: "/api/v1/object/agent_card/{nid}" },
  ];

  it.each([
    [
      "/api/v1/object/property/{nid}",
      ["/api/v1/object/property/1", "/api/v1/object/property/x"],
      ["/api/v1/object/property", "/api/v1/object/property/", "/api/v1/object/property/1/2"],
    ],
    ["/api/v1/object/property/{id}", ["/api/v1/object/property/1"], ["/api/v1/object/property"]],
    ["/api/v1/object/property/1001", ["/api/v1/object/property/1001"], ["/api/v1/object/property/10011"]],
    [
      "/api/v1/object/agent_card/*",
      ["/api/v1/object/agent_card/", "/api/v1/object/agent_card/5"],
      ["/api/v1/object/agent_cards"],
    ],
    ["/api/v1/object/prop*", ["/api/v1/object/property", "/api/v1/object/property/7"], ["/api/v1/object/agent_card/"]],
    [
      "/api/v1/object/property/{nid}*",
      ["/api/v1/object/property/1", "/api/v1/object/property/1/x"],
      ["/api/v1/object/property/"],
    ],
    ["/api/*", ["/api/v1/object/property"], ["/healthz"]],
  ])("accepts %s and matches its paths only", (path, matched, unmatched) => {
    const rules = new FaultRules(routes);
    expect(rules.add({ path, status: 503 }).ok).toBe(true);
    for (const hit of matched) expect(rules.take("GET", hit), hit).toEqual({ id: 1, status: 503 });
    for (const miss of unmatched) expect(rules.take("GET", miss), miss).toBeUndefined();
  });

  it.each([
    [{ path: "/api/v1/object/property/1/2", status: 503 }, "/path"],
    [{ path: "/api/v1/object/agent_cards", status: 503 }, "/path"],
    [{ path: "/api/v1/object/property/", status: 503 }, "/path"],
    [{ path: "/api/v1/object/agent_card/{nid}/*", status: 503 }, "/path"],
    [{ path: "/api/v1/*/property", status: 503 }, "/path"],
    [{ path: "/api/v1/object/property/{nid", status: 503 }, "/path"],
    [{ method: "DELETE", path: "/api/v1/object/property/{nid}", status: 503 }, "/method"],
    [{ method: "GET", path: "/api/v1/object/property", status: 503 }, "/method"],
  ])("refuses %j, which can match no operation, naming %s", (input, pointer) => {
    const rules = new FaultRules(routes);
    const result = rules.add(input);
    expect(!result.ok && result.failure.errors?.map((error) => error.pointer)).toEqual([pointer]);
    expect(rules.list()).toEqual([]);
  });

  it("removes one rule by id, and only that one", () => {
    const rules = new FaultRules(routes);
    rules.add({ path: "/api/v1/object/property", status: 501 });
    rules.add({ path: "/api/v1/object/property", status: 502 });
    expect(rules.remove(1)).toEqual({ id: 1, path: "/api/v1/object/property", status: 501 });
    expect(rules.remove(1)).toBeUndefined();
    expect(rules.list().map((rule) => rule.id)).toEqual([2]);
    expect(rules.take("POST", "/api/v1/object/property")).toEqual({ id: 2, status: 502 });
  });
});
