// The product as its own process, for the tests that kill it (kill -9) and start it again: crash.test.ts,
// webhooks-crash.test.ts, services/events/cancellation-crash.test.ts.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** A port free at the moment of asking. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** `node --import tsx api/src/server.ts`, as `npm start` runs it, once its health says it is ready. */
export async function startProduct(env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, ["--import", "tsx", "api/src/server.ts"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = `${errors}${chunk}`.slice(-4_000);
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the product stopped: ${errors}`);
    if (Date.now() > deadline) throw new Error(`the product did not answer: ${errors}`);
    // Ready when its health says so: while it starts, the port already answers 503 (docs/decisions/0022).
    const answer = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null);
    if (answer?.ok) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  return { child, exited };
}
