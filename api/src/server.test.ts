// The process's life as an operator and a load balancer see it (docs/decisions/0022): the public health answer,
// the readiness while starting and draining, and a SIGTERM in the middle of a burst of requests against the
// real server — every request started before it answered in full, none after, the database closed cleanly.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { Agent, type ClientRequest, request as httpRequest, type IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, eq, like, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, root } from "../../bench/lib.ts";
import { createApp } from "./app.ts";
import { startingAnswers } from "./routes/health.ts";
import { createUser } from "./services/accounts/sessions.ts";
import { Lifecycle } from "./services/operations/health.ts";
import { ticketKeysOf } from "./services/tickets/ticket-codes.ts";
import { createTestContext, loginAs, type TestContext } from "./test-support.ts";

const PASSWORD = "correct-horse-battery-1!";
const HEALTH_KEYS = ["status", "database", "migrations", "mail"];

/** The API on `database`, in the phase `lifecycle` says (ready without one). */
const apiOn = (ctx: TestContext, database: TestContext["database"], lifecycle?: Lifecycle) =>
  createApp({ database, config: ctx.config, ticketKeys: ticketKeysOf(ctx.config.ticketSigningKey) }, lifecycle);

describe("GET /api/v1/health", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it("answers 200 ok without credentials: the database reached, every migration applied, nothing in the outbox", async () => {
    const response = await ctx.call("GET", "/health");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: "ok",
      database: { reachable: true },
      migrations: { applied: expect.any(Number), expected: expect.any(Number) },
      mail: { oldest_unsent_seconds: null, given_up: 0 },
    });
    expect(response.body.migrations.applied).toBe(response.body.migrations.expected);
    expect(response.body.migrations.expected).toBeGreaterThan(0);
  });

  it("shows a signed-in superuser nothing more than an anonymous caller", async () => {
    await createUser(ctx.database, { email: "root@example.org", password: PASSWORD, isSuperuser: true });
    const token = await loginAs(ctx, "root@example.org", PASSWORD);
    const signedIn = await ctx.call("GET", "/health", { token });
    expect(signedIn.status).toBe(200);
    expect(Object.keys(signedIn.body)).toEqual(HEALTH_KEYS);
    expect(signedIn.body).toEqual((await ctx.call("GET", "/health")).body);
  });

  it("reports the age of the oldest unsent mail and the mails given up, and still answers 200", async () => {
    const { mailOutbox } = schema;
    const mail = { kind: "register_verify" as const, to: "late@example.org", payload: {} };
    const ninetySecondsAgo = new Date(Date.now() - 90_000).toISOString();
    const [waiting] = await ctx.database.db
      .insert(mailOutbox)
      .values([
        { ...mail, createdAt: ninetySecondsAgo },
        { ...mail, createdAt: new Date().toISOString() },
      ])
      .returning();
    const moved = await ctx.call("GET", "/health");
    expect(moved.status).toBe(200);
    expect(moved.body.mail.oldest_unsent_seconds).toBeGreaterThanOrEqual(90);
    expect(moved.body.mail.given_up).toBe(0);

    // The oldest is given up after its last attempt: it no longer waits, and it is counted.
    await ctx.database.db
      .update(mailOutbox)
      .set({ status: "failed", attempts: 8, lastError: "550 mailbox unavailable" })
      .where(eq(mailOutbox.id, (waiting as { id: number }).id));
    const after = await ctx.call("GET", "/health");
    expect(after.body.mail.given_up).toBe(1);
    expect(after.body.mail.oldest_unsent_seconds).toBeLessThan(90);
    expect(after.body).not.toHaveProperty("mail.last_error");
  });

  it("answers 503 draining once the process is told to stop", async () => {
    const lifecycle = new Lifecycle();
    lifecycle.phase = "draining";
    const response = await apiOn(ctx, ctx.database, lifecycle).request("/api/v1/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: "draining", database: { reachable: true } });
  });

  it("answers 503 failing on a database that lacks this build's migrations", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ticketing-health-"));
    const bare = createDatabase({ url: `file:${join(dataDir, "bare.sqlite")}` });
    try {
      const response = await apiOn(ctx, bare).request("/api/v1/health");
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        status: "failing",
        database: { reachable: true },
        migrations: { applied: 0 },
      });
    } finally {
      await bare.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("while the product starts", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it("answers health 503 starting, before and after the database is opened", async () => {
    const lifecycle = new Lifecycle();
    const answer = startingAnswers(lifecycle, "/api/v1");
    const unopened = await answer(new Request("http://localhost/api/v1/health"));
    expect(unopened.status).toBe(503);
    expect(await unopened.json()).toMatchObject({ status: "starting", database: { reachable: false } });

    lifecycle.database = ctx.database;
    const opened = await answer(new Request("http://localhost/api/v1/health"));
    expect(opened.status).toBe(503);
    const body = await opened.json();
    expect(Object.keys(body)).toEqual(HEALTH_KEYS);
    expect(body).toMatchObject({ status: "starting", database: { reachable: true } });
    expect(body.migrations.applied).toBe(body.migrations.expected);
  });

  it("refuses every other request with 503 and Retry-After, in the caller's language", async () => {
    const answer = startingAnswers(new Lifecycle(), "/api/v1");
    const api = await answer(
      new Request("http://localhost/api/v1/events", { headers: { "accept-language": "fr-CH,fr;q=0.9" } }),
    );
    expect(api.status).toBe(503);
    expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await api.json()).toEqual({ errors: [expect.stringMatching(/démarre/)] });
    const page = await answer(new Request("http://localhost/tickets/demo"));
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBeTruthy();
    expect(await page.text()).toMatch(/starting/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// SIGTERM during a burst, against the real server

/** Registrations in flight at the signal: each hashes a password and writes an account and its mail. */
const BURST = 30;

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A registration whose headers are sent at once and whose body waits: started, not finished. */
interface HeldRequest {
  request: ClientRequest;
  /** The server read the request and asked for its body (100 Continue): it is in flight there. */
  continued: Promise<void>;
  answer: Promise<{ status: number; body: string; connection?: string; closed: Promise<void> }>;
  body: string;
}

/** `leadingSpaces`: spaces before the JSON (allowed there), for a test that sends the body a byte at a time. */
function heldRegistration(port: number, index: number, keepAlive = false, leadingSpaces = 0): HeldRequest {
  const body =
    " ".repeat(leadingSpaces) +
    JSON.stringify({
      email: `drain-${index}@example.org`,
      first_name: "Ada",
      last_name: `Drain ${index}`,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
  const request = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/api/v1/auth/register",
    agent: false,
    headers: {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      expect: "100-continue",
      connection: keepAlive ? "keep-alive" : "close",
    },
  });
  const continued = new Promise<void>((done) => request.once("continue", () => done()));
  const answer = new Promise<Awaited<HeldRequest["answer"]>>((done, fail) => {
    request.once("error", fail);
    request.once("response", (response: IncomingMessage) => {
      const closed = new Promise<void>((ended) => response.socket.once("close", () => ended()));
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.once("end", () =>
        done({ status: response.statusCode ?? 0, body: text, connection: response.headers.connection, closed }),
      );
      response.once("error", fail);
    });
  });
  request.flushHeaders();
  return { request, continued, answer, body };
}

/** Whether a new connection to `port` is refused (or reset before it carries anything). */
function isRefused(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      done(false);
    });
    socket.once("error", () => done(true));
  });
}

/** A keep-alive connection that has had its answer and now sits idle. */
async function idleKeepAliveConnection(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  await new Promise((done) => socket.once("connect", done));
  socket.write("GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n");
  await new Promise<void>((done) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      // The health answer is JSON ending with the mail object's and the body's braces.
      if (/\r\n\r\n[\s\S]*\}\}$/.test(text)) done();
    });
  });
  return socket;
}

/** The real server (`api/src/server.ts`) as `npm start` runs it, on a port of its own, once it answers ready. */
async function startServer(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "api/src/server.ts")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, LOG_MAILS: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  // Ready: the health answer says ok (503 starting before).
  for (;;) {
    expect(child.exitCode, output).toBeNull();
    const status = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    await pause(200);
  }
  return { child, port, exited, output: () => output };
}

describe("SIGTERM during a burst of requests", () => {
  let child: ChildProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-drain-"));
  afterAll(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers every request started before it, refuses new connections, then closes the database and exits 0", async () => {
    // 30 registrations from one address: above the default hourly allowance.
    const started = await startServer(dataDir, { RATE_LIMIT_MULTIPLIER: "10" });
    const { port, exited, output } = started;
    const server = started.child;
    child = server;

    const idle = await idleKeepAliveConnection(port);
    const idleClosed = new Promise<void>((done) => idle.once("close", () => done()));
    // The first asks to keep its connection: the answer, made while draining, tells it to close instead.
    const burst = Array.from({ length: BURST }, (_, index) => heldRegistration(port, index, index === 0));
    // Every request is in flight on the server: read, its handler waiting for its body.
    await Promise.all(burst.map((held) => held.continued));

    server.kill("SIGTERM");
    // New connections are refused while the burst is still held open (the process is alive: it waits for it).
    while (!(await isRefused(port))) await pause(20);
    expect(await isRefused(port)).toBe(true);
    // An idle keep-alive connection does not hold the shutdown open: it is closed at once.
    await idleClosed;
    expect(server.exitCode, "the process waits for the requests in flight").toBeNull();

    for (const held of burst) held.request.end(held.body);
    const answers = await Promise.all(burst.map((held) => held.answer));
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(201);
      expect(JSON.parse(answer.body)).toEqual({ detail: expect.any(String) });
    }
    expect(answers[0]?.connection).toBe("close");
    await answers[0]?.closed;

    expect(await exited, output()).toBe(0);
    // Closed cleanly: SQLite checkpointed its write-ahead log into the file and removed it (a process that exits
    // without closing leaves it), and the file alone holds every account the burst created.
    expect(existsSync(join(dataDir, "ticketing.sqlite-wal"))).toBe(false);
    const database = createDatabase({ url: `file:${join(dataDir, "ticketing.sqlite")}` });
    try {
      const accounts = await database.db
        .select({ email: schema.users.email })
        .from(schema.users)
        .where(like(schema.users.email, "drain-%"));
      expect(accounts).toHaveLength(BURST);
      // The mail worker stopped after the mail it was sending: no mail is left claimed, and every mail marked
      // sent was written out.
      const mails = await database.db.select().from(schema.mailOutbox);
      expect(mails.filter((mail) => mail.status === "pending" && mail.claimedBy !== null)).toEqual([]);
      const written = existsSync(join(dataDir, "mail")) ? readdirSync(join(dataDir, "mail")).length : 0;
      expect(written).toBe(mails.filter((mail) => mail.status === "sent").length);
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe("SIGTERM while an answer is still flowing (docs/decisions/0035)", () => {
  let child: ChildProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-flowing-"));
  afterAll(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("waits past 10 s for a request whose body keeps arriving, answers it in full, then exits 0", async () => {
    const started = await startServer(dataDir);
    child = started.child;
    // The test's own stream: one byte of the body a second, for longer than the 10 s that used to cut every
    // answer still going, then the rest.
    const FLOWING_SECONDS = 12;
    const held = heldRegistration(started.port, 0, false, FLOWING_SECONDS);
    await held.continued;
    started.child.kill("SIGTERM");
    for (let second = 0; second < FLOWING_SECONDS; second++) {
      held.request.write(" ");
      await pause(1000);
      expect(started.child.exitCode, started.output()).toBeNull();
    }
    held.request.end(held.body.slice(FLOWING_SECONDS));
    const answer = await held.answer;
    expect(answer.status, answer.body).toBe(201);
    expect(await started.exited, started.output()).toBe(0);
  }, 120_000);
});

describe("a request body its answer did not need, on a kept-alive connection", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-unread-"));
  beforeAll(async () => {
    server = await startServer(dataDir);
  }, 60_000);
  afterAll(async () => {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  interface Sent {
    status: number;
    connection?: string;
    text: string;
    /** It went on a connection an earlier request had used. */
    reused: boolean;
    /** What the client met while sending (a reset, an EPIPE), up to the request's end. */
    error?: string;
  }

  /** One request on `agent`, followed to its end: the answer read in full, the request closed. */
  const send = (agent: Agent, method: string, path: string, body?: { type: string; bytes: Buffer }): Promise<Sent> =>
    new Promise((done, fail) => {
      let answer: Omit<Sent, "error"> | undefined;
      let error: string | undefined;
      const request = httpRequest(
        {
          host: "127.0.0.1",
          port: server.port,
          method,
          path,
          agent,
          headers: body ? { "content-type": body.type, "content-length": body.bytes.length } : {},
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            text += chunk;
          });
          response.once("end", () => {
            answer = {
              status: response.statusCode ?? 0,
              connection: response.headers.connection,
              text,
              reused: request.reusedSocket,
            };
          });
        },
      );
      request.on("error", (met: Error) => {
        error = met.message;
      });
      request.once("close", () => (answer ? done({ ...answer, error }) : fail(new Error(error ?? "no answer"))));
      request.end(body?.bytes);
    });

  const KB = 1024;
  const json = (size: number) => ({ type: "application/json", bytes: Buffer.alloc(size, " ") });

  it.each([
    { answer: "401 (no token)", path: "/api/v1/events", body: json(300 * KB), status: 401 },
    {
      answer: "401 (an upload without a token)",
      path: "/api/v1/uploaded-images",
      body: { type: "multipart/form-data; boundary=x", bytes: Buffer.alloc(300 * KB, "x") },
      status: 401,
    },
    { answer: "404 (no such address)", path: "/api/v1/no-such-thing", body: json(900 * KB), status: 404 },
  ])(
    "answers a 300 KB–900 KB post with $answer, and the same connection serves the next request",
    async ({ path, body, status }) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const first = await send(agent, "POST", path, body);
        expect(first.status, first.text).toBe(status);
        expect(first.error).toBeUndefined();
        expect(first.connection).toBe("keep-alive");
        const second = await send(agent, "GET", "/api/v1/health");
        expect(second.status).toBe(200);
        expect(second.reused, "the next request went on the same connection").toBe(true);
      } finally {
        agent.destroy();
      }
    },
  );

  it("keeps an idle connection open past node's 5 s: a client that reuses it after 6 s is answered, not reset", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await send(agent, "GET", "/api/v1/health")).status).toBe(200);
      await pause(6_000);
      const later = await send(agent, "GET", "/api/v1/health");
      expect(later.error).toBeUndefined();
      expect(later.status).toBe(200);
      expect(later.reused).toBe(true);
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it("answers a body over the limit with a 413 that says close, and the client reads it while still sending", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // 20 MB: far more than the systems' buffers hold, so the client is still sending when the 413 comes.
      const refused = await send(agent, "POST", "/api/v1/auth/login", json(20 * 1024 * KB));
      expect(refused.status).toBe(413);
      // The server read the rest before closing: no reset (EPIPE) met the client while it sent.
      expect(refused.error).toBeUndefined();
      expect(JSON.parse(refused.text)).toEqual({ errors: [expect.stringMatching(/1 MB/)] });
      expect(refused.connection).toBe("close");
      const next = await send(agent, "GET", "/api/v1/health");
      expect(next.status).toBe(200);
      expect(next.reused).toBe(false);
    } finally {
      agent.destroy();
    }
  });
});
