/**
 * A front end served from another origin uses the mock from a real browser (Debian's Chromium, driven by
 * playwright-core): the preflight for the API-KEY and TOKEN headers passes, and the answers, errors
 * included, are readable by the page. The HAR file the browser records of that traffic is checked against
 * the contract as a user's recording would be.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CHROMIUM, CHROMIUM_AVAILABLE, openChromium, type ChromiumSession } from "../support/chromium.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkRecording } from "../../src/contract/recording/check-recording.ts";
import { readRecording } from "../../src/contract/recording/read-recording.ts";
import { createMockServer } from "../../src/hosts/node/create-mock-server.ts";
import { sharedContract } from "../support/mock-harness.ts";
import { scratchFolder } from "../support/scratch-folder.ts";

const available = CHROMIUM_AVAILABLE;

/** Why the tests are skipped, when they are: the reporter shows it beside each. */
const WHY =
  `${CHROMIUM} is missing (.ci/run installs Debian's chromium package; REQUIRE_BROWSER=1 makes its absence an ` +
  `error)`;

describe(`a browser page on another origin (needs ${CHROMIUM})`, () => {
  const mock = createMockServer({ contract: sharedContract(), validateResponses: true });
  let api = "";
  let page = "";
  let site: Server;
  let browser: ChromiumSession;

  beforeAll(async () => {
    if (!available) return;
    ({ url: api } = await mock.listen(0));
    site = createServer((_request, response) => {
      response.setHeader("content-type", "text/html");
      response.end("<!doctype html><title>Front end</title><p>front end</p>");
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

  it("creates and retrieves a property with fetch, and reads a problem+json error", async ({ skip }) => {
    skip(!available, WHY);
    const tab = await browser.newPage();
    await tab.goto(page);
    const result = await tab.evaluate(async (base) => {
      const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
      const created = await fetch(`${base}/api/v1/object/property`, {
        method: "POST",
        headers,
        body: JSON.stringify({ street: "1 Browser Way", city: "Austin", state: "TX", zip: "78701" }),
      });
      const { nid } = (await created.json()) as { nid: string };
      const retrieved = await fetch(`${base}/api/v1/object/property/${nid}`, { headers });
      const property = (await retrieved.json()) as { street: string };
      const denied = await fetch(`${base}/api/v1/object/agent_cards`, {
        headers: { "content-type": "application/json" },
      });
      const problem = (await denied.json()) as { title: string };
      const { origin } = (globalThis as unknown as { location: { origin: string } }).location;
      return {
        origin,
        created: created.status,
        retrieved: retrieved.status,
        street: property.street,
        denied: denied.status,
        title: problem.title,
        type: denied.headers.get("content-type"),
      };
    }, api);
    expect(result.origin).not.toBe(new URL(api).origin);
    expect(result).toMatchObject({
      created: 200,
      retrieved: 200,
      street: "1 Browser Way",
      denied: 401,
      title: "Unauthorized",
      type: "application/problem+json; charset=utf-8",
    });
    expect(mock.violations).toEqual([]);
  });

  it("records a HAR file the recording check reads: the page left out, the client's bad call named", async ({
    skip,
  }) => {
    skip(!available, WHY);
    const harPath = join(scratchFolder("plk-har-"), "front-end.har");
    const context = await browser.newContext({ recordHar: { path: harPath } });
    const tab = await context.newPage();
    await tab.goto(page);
    await tab.evaluate(async (base) => {
      const headers = { "API-KEY": "demo-key", TOKEN: "demo-token", "content-type": "application/json" };
      const created = await fetch(`${base}/api/v1/object/property`, {
        method: "POST",
        headers,
        body: JSON.stringify({ street: "2 Browser Way", city: "Austin", state: "TX", zip: "78701", bedrooms: 2 }),
      });
      const { nid } = (await created.json()) as { nid: string };
      await (await fetch(`${base}/api/v1/object/property/${nid}`, { headers })).json();
      await (await fetch(`${base}/api/v1/object/template_base`, { headers })).json();
      // A client bug: a lower-case garage value.
      await (
        await fetch(`${base}/api/v1/object/property/${nid}`, {
          method: "PUT",
          headers,
          body: JSON.stringify({ garage: "attached" }),
        })
      ).text();
    }, api);
    await context.close(); // writes the HAR file

    const read = readRecording(readFileSync(harPath, "utf8"));
    if (!read.ok) throw new Error(read.message);
    const outcome = checkRecording(read.exchanges, { source: "front-end.har", contract: sharedContract() });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    const { report } = outcome;
    expect(report.recording).toMatchObject({ checked: 4 });
    expect(report.recording!.otherTraffic).toBeGreaterThanOrEqual(1); // the page itself
    expect(
      report.results
        .filter((result) => result.status !== "passed")
        .map((result) => `${result.step.replace(/\d+/, "N")} ${result.check}: ${result.message}`),
    ).toEqual([
      'entry N request_conformance: editProperty request.body/garage: must be one of "Attached", "Detached", ' +
        '"None" or a numeric string, got string "attached" [anyOf]',
    ]);
    expect(report.summary.response_schema_conformance!.passed).toBe(4);
    expect(mock.violations).toEqual([]);
  });
});
