// Browser journeys against the running product (`npm start`'s server) on a fresh data folder, in Debian's
// Chromium (no browser download: it cannot work on these machines).
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

// A port (and data folder) per run, chosen in the main process and inherited by the workers through the
// environment, so two runs on one machine do not collide.
process.env.E2E_PORT ??= String(20_000 + (process.pid % 20_000));
const port = Number(process.env.E2E_PORT);
export const baseURL = `http://127.0.0.1:${port}`;
/**
 * The product's PUBLIC_URL: another host name than the one the browsers use, as `npm start` prints localhost while
 * people also reach it on 127.0.0.1 (issue 28, docs/decisions/0030). Every journey is then a visit on a host name
 * that is not PUBLIC_URL's: whatever the browser follows must stay on it. Mails' links lead to PUBLIC_URL.
 */
export const publicURL = `http://localhost:${port}`;
export const dataDir = join(import.meta.dirname, `.data-${port}`);
/** The local stand-in for Stripe's API and hosted Checkout page (api/src/stripe-stand-in): these machines cannot reach Stripe. */
export const stripePort = port + 1;
export const stripeURL = `http://127.0.0.1:${stripePort}`;

/**
 * The journeys that use the seeded demo event change it (its access methods, articles, display flags) and count
 * its stock: they run one at a time. The others make events and accounts of their own, beside them.
 */
const USES_THE_DEMO_EVENT = /journeys\/(ticket-office\/.*|demo-purchase)\.spec\.ts$/;

export default defineConfig({
  testDir: "journeys",
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: "demo event", testMatch: USES_THE_DEMO_EVENT, workers: 1 },
    { name: "own data", testIgnore: USES_THE_DEMO_EVENT },
  ],
  retries: 0,
  // Generous limits: every wait is on something a person would see, so a passing run never waits them out,
  // and two workers on two cores sometimes run several times slower than one alone.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    locale: "en-GB",
    // A stuck step says which it was before the test's own limit runs out.
    actionTimeout: 30_000,
    // Traces keep the DOM snapshots of a failed journey, without a screenshot taken at every step of every journey.
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: [
    {
      command: `node --import tsx ../api/src/stripe-stand-in/main.ts --port ${stripePort}`,
      cwd: import.meta.dirname,
      port: stripePort,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      // A fresh database each run: the first start migrates and seeds it, as `npm start` does.
      command: `rm -rf "${dataDir}" && node --import tsx ../api/src/server.ts`,
      cwd: import.meta.dirname,
      url: `${baseURL}/api/v1/events/public-infos`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_URL: publicURL,
        NODE_ENV: "production",
        LOG_MAILS: "false",
        RATE_LIMIT_MULTIPLIER: "100",
        // The product's real Stripe adapter, pointed at the stand-in.
        STRIPE_API_URL: stripeURL,
      },
    },
  ],
});
