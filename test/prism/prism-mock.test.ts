/**
 * `npm run mock:prism`: Prism serves a stateless mock straight from spec/openapi.yaml. Started once for the
 * file with the README's command (on a free port), which test/e2e/readme-commands.test.ts leaves to this file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { formatViolation } from "../../src/contract/contract-violation.ts";
import { README_PRISM, readmeCommand } from "../support/readme-commands.ts";
import {
  responseExample,
  send,
  startCommand,
  validRequest,
  type RunningPrism,
  type TestAnswer,
  type TestRequest,
} from "./prism-harness.ts";

const contract = createContract();
const operation = (id: string) => {
  const found = contract.operation(id);
  if (!found) throw new Error(`No operation ${id}`);
  return found;
};
const verdict = (request: TestRequest, answer: TestAnswer) =>
  contract.validateResponse({ ...request, status: answer.status, headers: answer.headers, body: answer.json });

let prism: RunningPrism;
beforeAll(async () => {
  prism = await startCommand(readmeCommand(README_PRISM.mock));
});
afterAll(async () => {
  await prism?.stop();
});

it("prints where it listens", () => {
  expect(prism.output()).toContain(`Prism mock of `);
  expect(prism.output()).toContain(`on http://127.0.0.1:${prism.port}`);
});

describe("a valid request to each operation", () => {
  it("covers the fifteen operations of the spec", () => {
    expect(contract.operations).toHaveLength(15);
  });

  it.each(contract.operations.map((op) => [op.id, op] as const))(
    "%s answers 200 with the spec's example, and our validator accepts it",
    async (_, op) => {
      const request = validRequest(contract, op);
      const answer = await send(prism.url, request);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get("sl-violations")).toBeNull();
      expect(answer.json).toEqual(responseExample(contract.document, op, "200"));
      const result = verdict(request, answer);
      expect(result.errors.map(formatViolation)).toEqual([]);
      expect(result.valid).toBe(true);
    },
  );
});

describe("invalid requests", () => {
  it("refuses a request without credentials with 401, and names the security violation", async () => {
    const request = validRequest(contract, operation("retrieveProperty"));
    const answer = await send(prism.url, { ...request, headers: { "content-type": "application/json" } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.headers.get("sl-violations") ?? "[]")).toEqual([
      expect.objectContaining({ location: ["request"], severity: "Error", code: 401 }),
    ]);
    // The body is the spec's own 401 example, so it passes our validator as a documented error.
    expect(verdict(request, answer).errors.map(formatViolation)).toEqual([]);
  });

  it("refuses a create body with garage 'attached' (the enum is case sensitive): a 4xx naming the field", async () => {
    const request = validRequest(contract, operation("createProperty"));
    const answer = await send(prism.url, { ...request, body: { ...(request.body as object), garage: "attached" } });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    // Prism answers the lowest of 422 and 400 the operation documents; createProperty documents only 400.
    expect(answer.status).toBe(400);
    const violations = JSON.parse(answer.headers.get("sl-violations") ?? "[]") as Array<{
      location: string[];
      code: string;
    }>;
    expect(violations).toEqual([expect.objectContaining({ location: ["request", "body", "garage"], code: "enum" })]);
  });

  it("refuses a non-integer nid in the path with 400", async () => {
    const request = validRequest(contract, operation("retrieveProperty"));
    const answer = await send(prism.url, { ...request, path: "/api/v1/object/property/abc" });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("sl-violations")).toContain('"path","nid"');
  });
});

describe("Prefer header", () => {
  it("code=404 answers the documented 404 example, which our validator accepts", async () => {
    const request = validRequest(contract, operation("retrieveDocument"));
    const answer = await send(prism.url, request, { Prefer: "code=404" });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ status: 404, title: "Not Found" });
    expect(verdict(request, answer).errors.map(formatViolation)).toEqual([]);
  });

  it("code=402 answers the documented Not Enough Agent Seats problem for agent creation", async () => {
    const request = validRequest(contract, operation("createAgentCard"));
    const answer = await send(prism.url, request, { Prefer: "code=402" });
    expect(answer.status).toBe(402);
    expect(answer.json).toMatchObject({ title: "Not Enough Agent Seats" });
    expect(verdict(request, answer).valid).toBe(true);
  });

  it("example=<name> picks a named example, and an unknown name is a 404 from Prism", async () => {
    const request = validRequest(contract, operation("retrieveTemplateCatalogue"));
    const named = await send(prism.url, request, { Prefer: "example=excerpt" });
    expect(named.status).toBe(200);
    expect(named.json).toEqual(responseExample(contract.document, operation("retrieveTemplateCatalogue"), "200"));
    const unknown = await send(prism.url, request, { Prefer: "example=noSuchExample" });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("noSuchExample");
  });

  it("dynamic=true generates data for one request (no fixed example) that our validator accepts", async () => {
    const op = operation("retrieveDocument");
    const request = validRequest(contract, op);
    const answer = await send(prism.url, request, { Prefer: "dynamic=true" });
    expect(answer.status).toBe(200);
    expect(answer.json).not.toEqual(responseExample(contract.document, op, "200"));
    expect(verdict(request, answer).errors.map(formatViolation)).toEqual([]);
  });
});
