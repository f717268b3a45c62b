/**
 * Prism's validating proxy in front of the project's own stateful mock (`createMockServer`): a short client
 * scenario passes through without a single violation, as judged by Prism and by the mock's own response checks.
 * Prism is started with the README's `npm run proxy -- --target ...` (the mock as the target), which
 * test/e2e/readme-commands.test.ts leaves to this file.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMockServer, type MockServer } from "../../src/hosts/node/create-mock-server.ts";
import { README_PRISM, readmeCommand } from "../support/readme-commands.ts";
import { send, startCommand, type RunningPrism, type TestAnswer, type TestRequest } from "./prism-harness.ts";

let mock: MockServer;
let prism: RunningPrism;
let headers: Record<string, string>;
let mockUrl = "";
beforeAll(async () => {
  mock = createMockServer({ validateResponses: true });
  const { url } = await mock.listen(0, "127.0.0.1");
  mockUrl = url;
  const account = mock.store.state.accounts[0];
  if (!account) throw new Error("The mock's fixtures have no account");
  headers = { "API-KEY": account.apiKey, TOKEN: account.token, "content-type": "application/json" };
  prism = await startCommand(readmeCommand(README_PRISM.proxy).replace("https://staging.example.com", url));
});
afterAll(async () => {
  await prism?.stop();
  await mock?.close();
});

const call = async (method: string, path: string, body?: unknown): Promise<TestAnswer> => {
  const request: TestRequest = { method, path, headers, ...(body === undefined ? {} : { body }) };
  const answer = await send(prism.url, request);
  expect(answer.headers.get("sl-violations"), `${method} ${path}`).toBeNull();
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200);
  return answer;
};

it("create a property, attach a floorplan, read both back, list agents and templates: no violation", async () => {
  const created = (
    await call("POST", "/api/v1/object/property", { street: "1 Proxy Way", city: "Oakland", state: "CA", zip: "94607" })
  ).json as { nid: string; uri: string };
  await call("PUT", `/api/v1/object/property/${created.nid}`, { external_id: `proxy-${created.nid}` });
  const property = (await call("GET", `/api/v1/object/external-property/proxy-${created.nid}`)).json as { nid: string };
  expect(property.nid).toBe(created.nid);

  const document = (
    await call("POST", "/api/v1/object/document/", {
      title: "Ground floor",
      property_reference: Number(created.nid),
      file_url: "https://files.example/ground.pdf",
      is_floorplan: true,
    })
  ).json as { nid: number };
  await call("GET", `/api/v1/object/document/${document.nid}`);
  const withFloorplan = (await call("GET", `/api/v1/object/property/${created.nid}`)).json as {
    floorplans: Record<string, unknown>;
  };
  expect(Object.keys(withFloorplan.floorplans)).toContain(String(document.nid));

  await call("GET", "/api/v1/object/agent_cards");
  await call("GET", "/api/v1/object/template_base");
  expect(mock.violations).toEqual([]);
});

it("an invalid body: the proxy refuses it with 422 before the mock, which answers 400 (README: Prism)", async () => {
  const invalid = { street: "1 Proxy Way", city: "Oakland", state: "CA", zip: "94607", garage: "attached" };
  const before = mock.store.counts().properties;
  const throughProxy = await send(prism.url, {
    method: "POST",
    path: "/api/v1/object/property",
    headers,
    body: invalid,
  });
  expect(throughProxy.status).toBe(422);
  const direct = await fetch(`${mockUrl}/api/v1/object/property`, {
    method: "POST",
    headers,
    body: JSON.stringify(invalid),
  });
  expect(direct.status).toBe(400);
  expect(((await direct.json()) as { title: string }).title).toBe("Invalid Request");
  expect(mock.store.counts().properties).toBe(before);
});
