import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // The default output, then every test skipped for a missing prerequisite with the reason it gave.
    reporters: ["default", "./test/support/skip-reasons-reporter.ts"],
  },
});
