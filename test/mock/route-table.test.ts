/**
 * The route table (src/mock/http/route-table.ts) names only routes someone answers: in the Node host, a request to
 * each row reaches that row's handler, not the 404 of a path no route takes.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { ROUTES, type Route } from "../../src/mock/http/route-table.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { tinyFixtures } from "../support/tiny-fixtures.ts";

/** Rows that answer "nothing here" by design, or that another row before them shadows in the Node host. */
const FALLBACKS = new Set(["adminNotFound", "rawRecordsElsewhere"]);

/** A path the row takes: a segment route gets one segment. */
const pathOf = (route: Route): string => (route.match === "segment" ? `${route.path}x` : route.path);
/** A method the row answers; the live journal is asked with one it refuses, since a GET stays open. */
const methodOf = (route: Route): string => (route.name === "consoleEvents" ? "DELETE" : (route.methods?.[0] ?? "GET"));

describe("the route table", () => {
  const mock = createMockServer({ fixtures: tinyFixtures(), contract: sharedContract(), log: () => {} });
  const rows = (ROUTES as readonly Route[]).filter((route) => !FALLBACKS.has(route.name));

  it.each(rows.map((route) => [`${methodOf(route)} ${pathOf(route)}`, route] as const))(
    "%s reaches its handler in the Node host",
    async (_name, route) => {
      const answer = await request(mock.app)[methodOf(route).toLowerCase() as "get"](pathOf(route));
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
      expect(String(answer.body?.detail ?? ""), route.name).not.toMatch(/^Nothing at \w+ \S+\. The API lives under/);
    },
  );

  it("answers a path no row takes with the 404 that says where the API is", async () => {
    const answer = await request(mock.app).get("/nowhere").expect(404);
    expect(answer.body.detail).toBe("Nothing at GET /nowhere. The API lives under /api/v1/object/.");
    const admin = await request(mock.app).get("/__admin/nowhere").expect(404);
    expect(admin.body.detail).toBe("Nothing at GET /__admin/nowhere. The API lives under /api/v1/object/.");
  });
});
