import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Component tests (*.test.tsx) choose a DOM with `// @vitest-environment jsdom` at their top.
    include: ["{shared,db,api,admin,storefront}/**/*.test.{ts,tsx}"],
    exclude: ["**/node_modules/**", "**/build/**", "**/dist/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The product's log lines (lib/log.ts) would drown the report; a test that reads them gives its own logger.
    env: { LOG_LEVEL: "silent" },
  },
});
