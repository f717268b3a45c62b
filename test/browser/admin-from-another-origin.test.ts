/**
 * A page of another origin, open in the developer's browser (Debian's Chromium, driven by playwright-core),
 * tries to reset the mock and to write a raw record, with fetch and with a plain HTML form: every attempt is
 * refused (403, seen in the mock's request log) and nothing changes, while the same page can still call the API.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CHROMIUM, CHROMIUM_AVAILABLE, openChromium, type ChromiumSession } from "../support/chromium.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { tinyFixtures } from "../support/tiny-fixtures.ts";

const available = CHROMIUM_AVAILABLE;

describe.runIf(available)(
  `a page of another origin against the admin routes (needs ${CHROMIUM}; .ci/run installs it)`,
  () => {
    const log: string[] = [];
    const mock = createMockServer({
      fixtures: tinyFixtures(),
      contract: sharedContract(),
      validateResponses: true,
      log: (line) => log.push(line),
    });
    let api = "";
    let page = "";
    let site: Server;
    let browser: ChromiumSession;

    beforeAll(async () => {
      ({ url: api } = await mock.listen(0));
      // The attacker's page: two forms a browser posts without asking anyone, one of them smuggling JSON in text/plain.
      site = createServer((_request, response) => {
        response.setHeader("content-type", "text/html");
        response.end(
          `<!doctype html><title>Some other site</title>
         <form id="reset" method="POST" action="${api}/__admin/reset"><input name="a" value="b"></form>
         <form id="raw" method="POST" action="${api}/__db/properties" enctype="text/plain">
           <input name='{"uid":1,"padding":"' value='"}'></form>`,
        );
      });
      await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
      page = `http://localhost:${(site.address() as AddressInfo).port}/`;
      browser = await openChromium();
    });

    afterAll(async () => {
      await browser?.close();
      site?.close();
      await mock.close();
    });

    it("cannot reset the mock or write a raw record with fetch or a form, and can still use the API", async () => {
      const tab = await browser.newPage();
      await tab.goto(page);
      // Something a reset would undo, made by the page itself through the API it may use.
      const created = await tab.evaluate(async (base) => {
        const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
        const answer = await fetch(`${base}/api/v1/object/property`, {
          method: "POST",
          headers,
          body: JSON.stringify({ street: "1 Browser Way", city: "Austin", state: "TX", zip: "78701" }),
        });
        return { status: answer.status, nid: ((await answer.json()) as { nid: string }).nid };
      }, api);
      expect(created.status).toBe(200);
      const before = JSON.stringify(mock.store.state);
      log.length = 0;

      const attempts = await tab.evaluate(async (base) => {
        const outcome = async (request: Promise<Response>) => {
          try {
            const answer = await request;
            return answer.type === "opaque" ? "opaque" : String(answer.status);
          } catch {
            return "blocked";
          }
        };
        const record = JSON.stringify({ uid: 1, street: "Injected" });
        return {
          // Simple requests a page may send without a preflight: it cannot read the answer, but the request leaves.
          resetNoCors: await outcome(fetch(`${base}/__admin/reset`, { method: "POST", mode: "no-cors" })),
          rawNoCors: await outcome(
            fetch(`${base}/__db/properties`, {
              method: "POST",
              mode: "no-cors",
              headers: { "content-type": "text/plain" },
              body: record,
            }),
          ),
          // A JSON write needs a preflight, which the admin routes do not grant.
          rawCors: await outcome(
            fetch(`${base}/__db/properties`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: record,
            }),
          ),
          readCors: await outcome(fetch(`${base}/__db/accounts`)),
        };
      }, api);
      expect(attempts).toEqual({ resetNoCors: "opaque", rawNoCors: "opaque", rawCors: "blocked", readCors: "blocked" });

      for (const form of ["#reset", "#raw"]) {
        await tab.goto(page);
        await Promise.all([
          tab.waitForURL((url) => url.href.startsWith(api)),
          tab.locator(form).evaluate((element) => (element as unknown as { submit(): void }).submit()),
        ]);
        expect(await tab.textContent("body")).toContain('"status":403');
      }

      expect(JSON.stringify(mock.store.state)).toBe(before);
      const adminLines = log.filter((line) => /\/__(admin|db)/.test(line));
      expect(adminLines.length).toBeGreaterThanOrEqual(4);
      for (const line of adminLines) expect(line).toMatch(/ 403 /);

      // The same page still uses the API, and finds the property the attacks did not remove.
      await tab.goto(page);
      const retrieved = await tab.evaluate(
        async ([base, nid]) => {
          const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
          const answer = await fetch(`${base}/api/v1/object/property/${nid}`, { headers });
          return { status: answer.status, street: ((await answer.json()) as { street: string }).street };
        },
        [api, created.nid] as const,
      );
      expect(retrieved).toEqual({ status: 200, street: "1 Browser Way" });
      expect(mock.violations).toEqual([]);
    });
  },
);
