/**
 * The Vitest addon's set-up (the addon applies preview.ts by itself): the kit's vitest module (the matchers on
 * vitest's expect, and each test begun on the mock's usage), and the usage written to a file once the stories
 * have run.
 */
import { afterAll } from "vitest";
import { commands } from "vitest/browser";
import "property-listing-kit/vitest";
import { mock } from "./listing-mock";

// The page cannot write files: vitest's browser command (vitest.config.ts) writes the document on the Node side.
afterAll(async () => {
  await commands.writeUsage(mock.usage!.text());
});

declare module "vitest/browser" {
  interface BrowserCommands {
    writeUsage(text: string): Promise<void>;
  }
}
