import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const common = {
  exclude: ["**/node_modules/**", "**/build/**", "**/dist/**"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // The product's log lines (lib/log.ts) would drown the report; a test that reads them gives its own logger.
  env: { LOG_LEVEL: "silent" },
};

/** The one server test that replaces a module (`vi.mock`): it runs in a module graph of its own. */
const MOCKS_A_MODULE = "api/src/services/accounts/accounts.test.ts";

export default defineConfig({
  test: {
    // Vitest keeps a core for itself (cores - 1 workers): one worker on CI's 2 cores. Most files wait on I/O, child
    // processes and SQLite, so two share 2 cores well: the suite ran in 305 s instead of 390 s here.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          ...common,
          name: "server",
          include: ["{shared,db,api}/**/*.test.ts"],
          exclude: [...common.exclude, MOCKS_A_MODULE],
          // The server's test files share their worker's modules instead of importing the whole API again for each
          // file: every test builds its own database and app (test-support.ts), and none replaces a module. The
          // suite ran in 341 s instead of 450 s here (the imports: 95 s of work instead of 240).
          isolate: false,
        },
      },
      {
        test: {
          ...common,
          name: "isolated",
          // Component tests (*.test.tsx) choose a DOM with `// @vitest-environment jsdom` at their top.
          include: ["{admin,storefront}/**/*.test.{ts,tsx}", MOCKS_A_MODULE],
          setupFiles: ["admin/src/testing-library.setup.ts"],
        },
      },
    ],
  },
});
