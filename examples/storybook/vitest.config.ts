import { existsSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { storybookTest } from "@storybook/addon-vitest/vitest-plugin";
import { playwright } from "@vitest/browser-playwright";
import { BaseSequencer, type BrowserCommand, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

const here = fileURLToPath(new URL(".", import.meta.url));

// The Chromium that runs the stories: CHROMIUM_PATH, else the system's /usr/bin/chromium, else the one
// `npx playwright install chromium` downloads.
const chromium = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

// Chromium's own calls home, off. A --disable-features given here replaces Playwright's list rather than adding to
// it, so Playwright's list (playwright-core 1.65.1) is repeated, with autofill's queries of form fields added.
const DISABLED_FEATURES = [
  "AutofillServerCommunication",
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
];
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-sync",
  "--disable-background-networking",
  "--disable-component-update",
  `--disable-features=${DISABLED_FEATURES.join(",")}`,
];

/** Writes the stories' usage document where USAGE_FILE says (usage.json by default). */
const writeUsage: BrowserCommand<[text: string]> = (_context, text) => {
  writeFileSync(process.env.USAGE_FILE ?? `${here}usage.json`, text);
};

/** The stories files in the order of their paths, so that the same stories write the same usage, story after story. */
class ByPath extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  // Bundled before the first story runs, so that vite never reloads the page in the middle of a run.
  optimizeDeps: {
    include: ["msw/browser", "msw-storybook-addon/csf3", "react", "react-dom/client", "react/jsx-dev-runtime"],
  },
  test: {
    // The order files run in is the whole run's choice, not a project's.
    sequence: { sequencer: ByPath },
    projects: [
      {
        extends: true,
        plugins: [storybookTest({ configDir: `${here}.storybook` })],
        test: {
          name: "storybook",
          setupFiles: [".storybook/vitest.setup.ts"],
          // One page and one mock for every stories file, so that the usage is one document, story after story.
          isolate: false,
          fileParallelism: false,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { ...(chromium ? { executablePath: chromium } : {}), args: CHROMIUM_ARGS },
            }),
            instances: [{ browser: "chromium" }],
            commands: { writeUsage },
          },
        },
      },
    ],
  },
});
