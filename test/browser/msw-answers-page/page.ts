/**
 * The page of test/browser/msw-answers.test.ts: MSW's worker with the kit's handlers serving a service's answers
 * (the `answers` option; a browser has no environment to name a file). The page begins a test over the admin route,
 * reads the property the service answered, then reads it again past the answers, and puts what it got on
 * `window.results`.
 */
import { setupWorker } from "msw/browser";
import { createMockHandlers } from "../../../src/msw.ts";

const page = globalThis as unknown as { results?: unknown };
const TEST = "page > header";
const usage = {
  usageVersion: 1,
  consumer: "browser-app",
  contract: { title: "t", version: "1", sha256: "0" },
  accounts: [],
  tests: [],
};
const answers = {
  answersVersion: 1 as const,
  consumer: "browser-app",
  source: { kind: "service" as const, baseUrl: "https://service.example" },
  usage,
  tests: [
    {
      name: TEST,
      interactions: [
        {
          operation: "retrieveProperty",
          path: "/api/v1/object/property/500007",
          status: 200,
          mediaType: "application/json",
          headers: { "content-type": "application/json; charset=utf-8" },
          body: { nid: "500007", title: "Quiet cottage", country: null },
        },
      ],
    },
  ],
};
const mock = createMockHandlers({ usage: { consumer: "browser-app" }, answers: JSON.stringify(answers) });
const worker = setupWorker(...mock.handlers);
const headers = { "API-KEY": "page-key-5f1e9a7c", TOKEN: "page-token-8b2d4c6e" };

async function run() {
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });
  const begun = await fetch("/__admin/usage/tests", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: TEST }),
  });
  const served = await fetch("/api/v1/object/property/500007", { headers });
  const past = await fetch("/api/v1/object/property/500007", { headers });
  page.results = {
    begun: begun.status,
    served: { status: served.status, body: await served.json() },
    past: past.status,
    notCovered: mock.answers!.notCovered(),
    usage: mock.usage!.toJSON(),
  };
}

run().catch((error: unknown) => {
  page.results = { error: String(error) };
});
