import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Component tests (*.test.tsx) choose a DOM with `// @vitest-environment jsdom` at their top.
    include: ["{shared,db,api,admin,storefront}/**/*.test.{ts,tsx}"],
    exclude: ["**/node_modules/**", "**/build/**", "**/dist/**"],
    // Vitest keeps a core for itself (cores - 1 workers): one worker on CI's 2 cores. Most files wait on I/O, child
    // processes and SQLite, so two share 2 cores well: the suite ran in 305 s instead of 390 s here.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    setupFiles: ["admin/src/testing-library.setup.ts"],
    hookTimeout: 60_000,
    // The product's log lines (lib/log.ts) would drown the report; a test that reads them gives its own logger.
    env: { LOG_LEVEL: "silent" },
  },
});
