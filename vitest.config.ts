import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // dist/ must be current: npm start, npm run contract and the bins run the built JavaScript.
    globalSetup: ["test/support/build-once.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // The default output, then every test skipped for a missing prerequisite with the reason it gave.
    reporters: ["default", "./test/support/skip-reasons-reporter.ts"],
  },
});
