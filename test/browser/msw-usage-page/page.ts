/**
 * The page of test/browser/msw-usage.test.ts: MSW's worker with the kit's handlers recording a consumer's usage;
 * the page's own fetch begins a test over the admin route, creates and reads a property, then begins another with
 * `usage.beginTest`, and puts the usage document on `window.results`.
 */
import { setupWorker } from "msw/browser";
import { createMockHandlers } from "../../../src/msw.ts";

const page = globalThis as unknown as { results?: unknown };
const mock = createMockHandlers({ usage: { consumer: "browser-app" } });
const worker = setupWorker(...mock.handlers);
const headers = { "API-KEY": "page-key-5f1e9a7c", TOKEN: "page-token-8b2d4c6e", "content-type": "application/json" };

async function run() {
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });
  const begun = await fetch("/__admin/usage/tests", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "page > create and read" }),
  });
  const created = (await (
    await fetch("/api/v1/object/property", {
      method: "POST",
      headers,
      body: JSON.stringify({ street: "1 Worker Way", city: "Austin", state: "TX", zip: "78701" }),
    })
  ).json()) as { nid: string };
  await fetch(`/api/v1/object/property/${created.nid}`, { headers });
  mock.usage!.beginTest("page > agents");
  await fetch("/api/v1/object/agent_cards", { headers });
  page.results = { begun: begun.status, usage: mock.usage!.toJSON() };
}

run().catch((error: unknown) => {
  page.results = { error: String(error) };
});
