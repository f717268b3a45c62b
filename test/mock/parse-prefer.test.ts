/** The Prefer header (RFC 7240) as the mock reads it, and --latency: plain functions, no HTTP. */
import { describe, expect, it } from "vitest";
import { MAX_DELAY_MS } from "../../src/mock/services/delay-limit.ts";
import { parseLatency, pickLatency } from "../../src/mock/services/latency.ts";
import { parsePrefer, preferenceApplied } from "../../src/mock/services/parse-prefer.ts";

describe("parsePrefer", () => {
  it.each([
    [undefined, {}],
    ["", {}],
    ["code=503", { code: 503 }],
    ["delay=250", { delay: 250 }],
    ["code=404, delay=10", { code: 404, delay: 10 }],
    ['CODE="422"; x=1 , Delay = 5', { code: 422, delay: 5 }],
    ["return=minimal, code=500", { code: 500 }],
    ["example=foo, dynamic=true", {}],
    ["code=502, code=503", { code: 502 }],
    [["code=502", "delay=0"], { code: 502, delay: 0 }],
    ['x="a,code=400", code=401', { code: 401 }],
  ])("reads %j as %j", (header, expected) => {
    expect(parsePrefer(header)).toEqual({ ok: true, value: expected });
  });

  it.each([
    "code=5o3",
    "code=99",
    "code=1000",
    "code=101",
    "code=600",
    "code",
    "delay=-1",
    "delay=1.5",
    `delay=${MAX_DELAY_MS + 1}`,
    "delay=abc",
  ])("refuses %j with a message naming the header", (header) => {
    const result = parsePrefer(header);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.problem).toBe("invalidPreference");
    expect(result.failure.errors).toEqual([
      { in: "header", pointer: "/prefer", detail: expect.stringMatching(/^Prefer: (code|delay) must be/) },
    ]);
  });

  it("keeps a long value out of its message", () => {
    const result = parsePrefer(`code=${"9".repeat(10_000)}`);
    expect(!result.ok && result.failure.detail.length).toBeLessThan(200);
  });

  it("names what it applied in Preference-Applied", () => {
    expect(preferenceApplied({})).toBeUndefined();
    expect(preferenceApplied({ code: 503, delay: 20 })).toBe("code=503, delay=20");
  });
});

describe("--latency", () => {
  it("reads a fixed delay and a range", () => {
    expect(parseLatency("200")).toEqual({ min: 200, max: 200 });
    expect(parseLatency("100-400")).toEqual({ min: 100, max: 400 });
  });

  it.each(["", "-5", "fast", "400-100", "1.5", `0-${MAX_DELAY_MS + 1}`, "1-2-3"])("refuses %j", (text) => {
    expect(parseLatency(text)).toEqual(expect.stringContaining("--latency"));
  });

  it("draws uniformly within the range, both ends included", () => {
    const latency = { min: 100, max: 400 };
    expect(pickLatency(latency, () => 0)).toBe(100);
    expect(pickLatency(latency, () => 0.999_999)).toBe(400);
    expect(pickLatency(latency, () => 0.5)).toBe(250);
    expect(pickLatency({ min: 7, max: 7 }, Math.random)).toBe(7);
  });
});
