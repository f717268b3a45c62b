import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The kit's matchers, and the current test's name given to every mock recording usage.
    setupFiles: ["property-listing-kit/vitest", "./test/setup.ts"],
  },
});
