/**
 * `npm run proxy -- --target URL`: Prism as a validating proxy (`--errors`) in front of a service. The service
 * here is a small upstream started in the test, which answers conformant responses until told to break the
 * contract; Prism is started once for the file, through scripts/prism.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createContract } from "../../src/contract/create-contract.ts";
import { formatViolation } from "../../src/contract/contract-violation.ts";
import {
  responseExample,
  send,
  startLauncher,
  validRequest,
  type RunningPrism,
  type TestRequest,
} from "./prism-harness.ts";

const contract = createContract();
const request = (id: string): TestRequest => {
  const operation = contract.operation(id);
  if (!operation) throw new Error(`No operation ${id}`);
  return validRequest(contract, operation);
};
const example = (id: string) => responseExample(contract.document, contract.operation(id)!, "200");

/** One of Prism's `sl-violations` entries (and of the `validation` list of its error body). */
interface PrismViolation {
  location: string[];
  severity: "Error" | "Warning";
  code?: string | number;
  message: string;
}

/** What the upstream answers, by `METHOD path`: a status and a JSON body. */
type Routes = Record<string, { status?: number; body: unknown }>;

const CONFORMANT: Routes = {
  "POST /api/v1/object/property": { body: { nid: "1024", uri: "http://127.0.0.1/autologin/abc" } },
  "GET /api/v1/object/template_base": { body: example("retrieveTemplateCatalogue") },
  "GET /api/v1/object/document/1024": { body: example("retrieveDocument") },
};

/** A stand-in for the real service; `routes` can be swapped to make it break the contract. */
class Upstream {
  routes: Routes = CONFORMANT;
  /** `METHOD path` of every request that reached the upstream. */
  received: string[] = [];
  private server: Server = createServer((req, res) => this.answer(req, res));

  async start(): Promise<string> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, "close");
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    req.on("end", () => {
      const key = `${req.method} ${req.url}`;
      this.received.push(key);
      const route = this.routes[key];
      res.writeHead(route?.status ?? (route ? 200 : 404), { "content-type": "application/json" });
      res.end(JSON.stringify(route?.body ?? { error: `no route ${key}` }));
    });
  }
}

const upstream = new Upstream();
let prism: RunningPrism;
beforeAll(async () => {
  const target = await upstream.start();
  prism = await startLauncher(["proxy", "--target", target]);
});
afterAll(async () => {
  await prism?.stop();
  await upstream.stop();
});
beforeEach(() => {
  upstream.routes = CONFORMANT;
  upstream.received = [];
});

const violationsOf = (headers: Headers): PrismViolation[] =>
  JSON.parse(headers.get("sl-violations") ?? "[]") as PrismViolation[];

it("prints where it listens and what it checks", () => {
  expect(prism.output()).toContain(`Prism validating proxy on http://127.0.0.1:${prism.port} -> http://127.0.0.1:`);
});

describe("a conformant service", () => {
  it.each(["createProperty", "retrieveTemplateCatalogue", "retrieveDocument"])(
    "%s passes through with 200 and no violation",
    async (id) => {
      const sent = request(id);
      const answer = await send(prism.url, sent);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get("sl-violations")).toBeNull();
      expect(answer.json).toEqual(upstream.routes[`${sent.method} ${sent.path}`]!.body);
      expect(upstream.received).toEqual([`${sent.method} ${sent.path}`]);
      // Prism and our own validator agree that the answer is conformant.
      const ours = contract.validateResponse({
        ...sent,
        status: answer.status,
        headers: answer.headers,
        body: answer.json,
      });
      expect(ours.errors.map(formatViolation)).toEqual([]);
    },
  );
});

describe("a service that breaks the contract", () => {
  it("createProperty answering a numeric nid and a relative uri: 500 problem+json naming both fields", async () => {
    upstream.routes = { ...CONFORMANT, "POST /api/v1/object/property": { body: { nid: 1024, uri: "x" } } };
    const sent = request("createProperty");
    const answer = await send(prism.url, sent);

    expect(upstream.received).toEqual(["POST /api/v1/object/property"]);
    expect(answer.status).toBe(500);
    expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const expected = [
      {
        location: ["response", "body", "nid"],
        severity: "Error",
        code: "type",
        message: "Response body property nid must be string",
      },
      {
        location: ["response", "body", "uri"],
        severity: "Error",
        code: "format",
        message: 'Response body property uri must match format "uri"',
      },
    ];
    expect(violationsOf(answer.headers)).toEqual(expected);
    expect(answer.json).toMatchObject({
      type: "https://stoplight.io/prism/errors#VIOLATIONS",
      status: 500,
      validation: expected,
    });

    // Our validator finds the same two faults in the upstream's body.
    const ours = contract.validateResponse({
      ...sent,
      status: 200,
      headers: { "content-type": "application/json" },
      body: { nid: 1024, uri: "x" },
    });
    expect(ours.errors.map((error) => `${error.location} ${error.rule}`)).toEqual([
      "response.body/nid type",
      "response.body/uri format",
    ]);
  });

  it("the template catalogue breaking the access-level rule (if/then): Prism's validator catches it", async () => {
    const icon = { title: "Icon", machine_name: "icon", access_level: "standard" };
    upstream.routes = { ...CONFORMANT, "GET /api/v1/object/template_base": { body: { templates: [icon] } } };
    const answer = await send(prism.url, request("retrieveTemplateCatalogue"));
    expect(answer.status).toBe(500);
    expect(violationsOf(answer.headers)).toEqual([
      expect.objectContaining({ location: ["response", "body", "templates", "0", "access_level"], code: "const" }),
      expect.objectContaining({ location: ["response", "body", "templates", "0"], code: "if" }),
    ]);
  });

  it("a document missing required fields: one violation per missing field", async () => {
    upstream.routes = { ...CONFORMANT, "GET /api/v1/object/document/1024": { body: { nid: "1024" } } };
    const answer = await send(prism.url, request("retrieveDocument"));
    expect(answer.status).toBe(500);
    const missing = violationsOf(answer.headers).map(
      (violation) => violation.message.match(/required property '(.+)'/)?.[1],
    );
    expect(missing).toEqual([
      "created",
      "changed",
      "title",
      "property_reference",
      "file_url",
      "visible",
      "category",
      "is_floorplan",
      "Show_on_unbranded",
    ]);
  });

  it("an undocumented status is only a Warning: it passes through, flagged in sl-violations", async () => {
    upstream.routes = { ...CONFORMANT, "GET /api/v1/object/document/1024": { status: 418, body: { teapot: true } } };
    const answer = await send(prism.url, request("retrieveDocument"));
    expect(answer.status).toBe(418);
    expect(violationsOf(answer.headers)).toEqual([
      {
        location: ["response"],
        severity: "Warning",
        message: "Unable to match the returned status code with those defined in the document: 200,400,401,404",
      },
    ]);
  });
});

describe("a client that breaks the contract", () => {
  it("a request without credentials is refused with 401 and never reaches the service", async () => {
    const sent = request("retrieveDocument");
    const answer = await send(prism.url, { ...sent, headers: { "content-type": "application/json" } });
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ type: "https://stoplight.io/prism/errors#UNAUTHORIZED" });
    expect(upstream.received).toEqual([]);
  });

  it("an invalid create body is refused with 422 naming the field, and never reaches the service", async () => {
    const sent = request("createProperty");
    const answer = await send(prism.url, { ...sent, body: { ...(sent.body as object), garage: "attached" } });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({
      type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY",
      validation: [expect.objectContaining({ location: ["body", "garage"], code: "enum" })],
    });
    expect(upstream.received).toEqual([]);
  });
});
