/**
 * The contract runner behind a proxy, as on a CI machine that reaches the service only through one (issue 28):
 * HTTP_PROXY carries every request to an http:// service in absolute form, HTTPS_PROXY every request to an
 * https:// one through a CONNECT tunnel with the service's certificate trusted through NODE_EXTRA_CA_CERTS,
 * NO_PROXY sends a host directly. The proxy is a real forwarding proxy on loopback (test/support/forwarding-proxy.ts)
 * and counts what it carried against the requests the report counts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpsServer, type Server } from "node:https";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { startForwardingProxy, type ForwardingProxy } from "../support/forwarding-proxy.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { CONTRACT_BIN, runCli } from "../support/run-contract-cli.ts";

const mock = createMockServer({ contract: sharedContract() });
let mockUrl = "";
let proxy: ForwardingProxy;
let dir = "";
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeAll(async () => {
  ({ url: mockUrl } = await mock.listen(0));
  proxy = await startForwardingProxy({ requireAuth: `Basic ${Buffer.from("ci:proxy-secret").toString("base64")}` });
  dir = mkdtempSync(join(tmpdir(), "plk-proxy-"));
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

let run = 0;
/** The bin with a JSON report on standard output; the proxy's hops of this run only. */
async function contractThrough(env: NodeJS.ProcessEnv, baseUrl = mockUrl) {
  const before = proxy.hops.length;
  const id = (run += 1);
  const result = await runCli(
    "node",
    [CONTRACT_BIN, "--reporter", "json", "--skip-seat-checks", "--public-base-url", mockUrl],
    {
      CONTRACT_BASE_URL: baseUrl,
      CONTRACT_API_KEY: `proxy-key-${id}`,
      CONTRACT_TOKEN: `proxy-token-${id}`,
      ...env,
    },
  );
  const report = JSON.parse(result.stdout) as {
    result: string;
    exchanges: number;
    results: Array<{ status: string; message?: string }>;
  };
  return { ...result, report, hops: proxy.hops.slice(before) };
}
const withAuth = (url: string) => url.replace("http://", "http://ci:proxy-secret@");

describe("HTTP_PROXY", () => {
  it("carries every request to an http:// service, in absolute form, and the run holds", async () => {
    const { code, report, hops, stderr } = await contractThrough({ HTTP_PROXY: withAuth(proxy.url) });
    expect(report.results.filter((result) => result.status === "failed")).toEqual([]);
    expect(code).toBe(0);
    expect(hops.length).toBe(report.exchanges);
    expect(hops.every((hop) => hop.kind === "absolute" && hop.target.startsWith(`${mockUrl}/api/v1/object/`))).toBe(
      true,
    );
    // The progress line names the proxy without its password.
    expect(stderr).toContain(`Proxies: http:// through http://***@127.0.0.1:${new URL(proxy.url).port}`);
    expect(stderr).not.toContain("proxy-secret");
  });

  it("in lower case too; NO_PROXY naming the host (with its port, or among others) sends it all directly", async () => {
    for (const noProxy of [`example.com,127.0.0.1:${new URL(mockUrl).port}`, ".example.com, 127.0.0.1", "*"]) {
      const { code, report, hops } = await contractThrough({ http_proxy: withAuth(proxy.url), NO_PROXY: noProxy });
      expect(code, noProxy).toBe(0);
      expect(report.exchanges).toBeGreaterThan(100);
      expect(hops, noProxy).toEqual([]);
    }
  });

  it("NO_PROXY naming another port of the host does not bypass it", async () => {
    const { code, report, hops } = await contractThrough({ HTTP_PROXY: withAuth(proxy.url), no_proxy: "127.0.0.1:1" });
    expect(code).toBe(0);
    expect(hops.length).toBe(report.exchanges);
  });

  it("a proxy that refuses the runner (407) is no verdict on the service: exit 2, naming the proxy", async () => {
    const result = await runCli("node", [CONTRACT_BIN, "--skip-seat-checks"], {
      CONTRACT_BASE_URL: mockUrl,
      CONTRACT_API_KEY: "k",
      CONTRACT_TOKEN: "t",
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /Cannot reach .*: the proxy failed: .*407.*give its user and password in its address/,
    );
  });
});

describe("HTTPS_PROXY and NODE_EXTRA_CA_CERTS", () => {
  let tls: Server;
  let tlsUrl = "";
  beforeAll(async () => {
    // A certificate of our own for 127.0.0.1, trusted only through NODE_EXTRA_CA_CERTS, and a TLS server that
    // passes every request on to the mock.
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    tls = createHttpsServer(
      { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
      (incoming, outgoing) => {
        const target = new URL(mockUrl);
        const forward = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: incoming.url,
            method: incoming.method,
            headers: { ...incoming.headers, host: target.host },
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        incoming.pipe(forward);
      },
    );
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        tls.closeAllConnections();
        tls.close(() => resolve());
      }),
  );

  it("tunnels each request to an https:// service through CONNECT, trusting the CA given; the run holds", async () => {
    const { code, report, hops } = await contractThrough(
      { HTTPS_PROXY: withAuth(proxy.url), NODE_EXTRA_CA_CERTS: join(dir, "cert.pem") },
      tlsUrl,
    );
    expect(report.results.filter((result) => result.status === "failed")).toEqual([]);
    expect(code).toBe(0);
    expect(hops.length).toBeGreaterThan(0);
    expect(hops.every((hop) => hop.kind === "connect" && hop.target === tlsUrl.slice("https://".length))).toBe(true);
  });

  it("without the CA, TLS fails through the tunnel too, and the message says what to do", async () => {
    const result = await runCli("node", [CONTRACT_BIN, "--skip-seat-checks"], {
      CONTRACT_BASE_URL: tlsUrl,
      CONTRACT_API_KEY: "k",
      CONTRACT_TOKEN: "t",
      HTTPS_PROXY: withAuth(proxy.url),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("NODE_EXTRA_CA_CERTS");
  });
});
