/**
 * The spec's OpenAPI `links`, which stateful tools (Schemathesis' stateful phase, a client that follows links)
 * use to chain a create into a retrieve, edit or delete: each names an operation of the spec and parameters it
 * has, and its runtime expressions resolve against a real answer of the mock, sent from the spec's own examples,
 * to a request the mock then answers with 200.
 */
import request from "supertest";
import { afterAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { resolvePointer } from "../../src/spec/json-pointer.ts";
import { loadSpec } from "../../src/spec/load-spec.ts";
import { sharedContract } from "../support/mock-harness.ts";

const spec = loadSpec();
const DEMO = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
const METHODS = ["get", "post", "put", "delete"] as const;

type Parameter = { name: string; in: string; example?: unknown };
interface Operation {
  operationId: string;
  method: (typeof METHODS)[number];
  path: string;
  parameters: Parameter[];
  /** The values of the request body's examples, or one body-less request. */
  bodies: unknown[];
  links: Record<string, { operationId: string; parameters: Record<string, string> }>;
}

const deref = <T>(value: unknown): T =>
  (value !== null && typeof value === "object" && "$ref" in value
    ? deref(resolvePointer(spec, (value as { $ref: string }).$ref))
    : value) as T;

const operations: Operation[] = Object.entries(spec.paths).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => {
    const operation = item[method]!;
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((raw) =>
      deref<Parameter>(raw),
    );
    const body = deref<{ content: Record<string, { examples?: Record<string, unknown> }> } | undefined>(
      operation.requestBody,
    );
    const examples = Object.values(body?.content["application/json"]?.examples ?? {}).map(
      (example) => deref<{ value: unknown }>(example).value,
    );
    const ok = deref<{ links?: Record<string, unknown> }>(operation.responses["200"]);
    const links = Object.fromEntries(
      Object.entries(ok.links ?? {}).map(([name, link]) => [name, deref<Operation["links"][string]>(link)]),
    );
    return {
      operationId: operation.operationId,
      method,
      path,
      parameters,
      bodies: body ? examples : [undefined],
      links,
    };
  }),
);
const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

/** The URL path of an operation, its path parameters filled in (from `values`, else the spec's examples). */
function pathOf(operation: Operation, values: Record<string, unknown> = {}): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = values[name] ?? operation.parameters.find((parameter) => parameter.name === name)?.example;
    if (value === undefined || value === null) throw new Error(`${operation.operationId}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A runtime expression (OpenAPI 3.1 §4.8.20.4) of the forms these links use, against one exchange; undefined when it
 * names nothing.
 */
function evaluate(expression: string, exchange: { requestBody: unknown; responseBody: unknown }): unknown {
  const match = /^\$(request|response)\.body#(\/.*)?$/.exec(expression);
  if (!match) throw new Error(`a runtime expression this test does not read: ${expression}`);
  return resolvePointer(match[1] === "request" ? exchange.requestBody : exchange.responseBody, match[2] ?? "");
}

const mock = createMockServer({ log: () => {}, validateResponses: true, contract: sharedContract() });
afterAll(() => mock.close());
const send = (method: Operation["method"], path: string, body?: unknown) => {
  const sent = request(mock.app)[method](path).set(DEMO);
  return body === undefined ? sent : sent.send(body as object);
};

const linked = operations.flatMap((source) =>
  Object.entries(source.links).map(([name, link]) => ({ source, name, link })),
);

describe("the spec's links", () => {
  it("chain each create into a retrieve, edit and delete of its resource, and each list into a retrieve", () => {
    const targets = (operationId: string) =>
      Object.values(byId.get(operationId)!.links)
        .map((link) => link.operationId)
        .sort();
    expect(targets("createProperty")).toEqual(expect.arrayContaining(["editProperty", "retrieveProperty"]));
    expect(targets("createAgentCard")).toEqual(
      expect.arrayContaining(["deleteAgentCard", "retrieveAgentCard", "updateAgentCard"]),
    );
    expect(targets("createDocument")).toEqual(
      expect.arrayContaining(["deleteDocument", "retrieveDocument", "updateDocument"]),
    );
    expect(targets("listUserProperties")).toContain("retrieveProperty");
    // The agent list is a map keyed by nid: a runtime expression names a fixed key, never "an entry", so it has no
    // link.
    expect(targets("listAgentCards")).toEqual([]);
    expect(linked.length).toBeGreaterThanOrEqual(12);
  });

  it.each(linked.map(({ source, name, link }) => [`${source.operationId} → ${name}`, source, link] as const))(
    "%s names an operation of the spec and parameters it has",
    (_title, _source, link) => {
      const target = byId.get(link.operationId);
      expect(target, link.operationId).toBeDefined();
      const names = target!.parameters
        .filter((parameter) => parameter.in === "path")
        .map((parameter) => parameter.name);
      expect(Object.keys(link.parameters).sort()).toEqual([...names].sort());
    },
  );

  it.each(linked.map(({ source, name, link }) => [`${source.operationId} → ${name}`, source, link] as const))(
    "%s resolves against the mock's answer to one of the spec's examples, and the mock answers the linked request",
    async (_title, source, link) => {
      const target = byId.get(link.operationId)!;
      const tried: string[] = [];
      for (const requestBody of source.bodies) {
        mock.reset();
        const answer = await send(source.method, pathOf(source), requestBody);
        expect(answer.status, `${source.operationId}: ${answer.text}`).toBe(200);
        const values = Object.fromEntries(
          Object.entries(link.parameters).map(([name, expression]) => [
            name,
            evaluate(expression, { requestBody, responseBody: answer.body }),
          ]),
        );
        if (Object.values(values).some((value) => value === undefined || value === null)) {
          tried.push(JSON.stringify(values));
          continue;
        }
        const followed = await send(target.method, pathOf(target, values), target.bodies[0]);
        expect(followed.status, `${target.operationId} ${pathOf(target, values)}: ${followed.text}`).toBe(200);
        expect(mock.violations).toEqual([]);
        return;
      }
      expect.fail(`no example of ${source.operationId} gives every parameter of the link a value: ${tried.join("; ")}`);
    },
  );
});
