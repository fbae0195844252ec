// The mail worker (docs/decisions/0008-mail-delivery-and-large-orders.md): queued mails claimed, sent a few at once,
// retried with a backoff, taken over from a dead worker, and never sent twice.
import { spawnSync } from "node:child_process";
import { type Database, type Driver, eq, schema } from "@ticketing/db";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { TestDatabase } from "../tickets/tickets.fixtures.ts";
import { createWorkerId } from "./claims.ts";
import { CLAIM_LEASE_MS, deliverPendingMails, MAX_MAIL_ATTEMPTS, startMailWorker } from "./delivery.ts";
import { type MailTestConfig, outboxRow, recordingTransport, useOutboxDatabase } from "./mail.fixtures.ts";
import { enqueueMail } from "./queue.ts";
import type { MailTransport } from "./transport.ts";

const { mailOutbox } = schema;
/** A worker of another machine: whether it lives cannot be told from here. */
const OTHER_MACHINE_WORKER = "4242.a1b2c3@other-host#other-kernel";

function enqueueResets(database: Database, count: number) {
  return database.transaction(function* (tx) {
    const ids: number[] = [];
    for (let index = 0; index < count; index++) {
      const mail = yield* enqueueMail(tx, {
        kind: "password_reset",
        to: `user${index}@example.org`,
        language: "en",
        payload: { link: `http://localhost:3000/admin/reset/${index}` },
      });
      ids.push(mail.id);
    }
    return ids;
  });
}

/** Writes a claim as a worker leaves it: its name and the end of its lease. */
function claimAs(database: Database, id: number, workerId: string, leaseEnd: Date) {
  return database.transaction(function* (tx) {
    yield tx
      .update(mailOutbox)
      .set({ claimedBy: workerId, nextAttemptAt: leaseEnd.toISOString() })
      .where(eq(mailOutbox.id, id))
      .run();
  });
}

describe.each<Driver>(["better-sqlite3", "libsql"])("mail outbox on %s", (driver) => {
  const outbox = useOutboxDatabase(driver);
  let test: TestDatabase;
  let database: Database;
  let config: MailTestConfig;
  beforeAll(() => {
    ({ test, database, config } = outbox);
  });

  it("does not queue a mail whose transaction fails", async () => {
    await expect(
      database.transaction(function* (tx) {
        yield* enqueueMail(tx, {
          kind: "register_verify",
          to: "a@example.org",
          language: "en",
          payload: { link: "http://x.test/v" },
        });
        throw new Error("the registration failed");
      }),
    ).rejects.toThrow("the registration failed");
    expect(await database.db.select().from(mailOutbox)).toEqual([]);
  });

  it("refuses a payload that does not fit its kind", async () => {
    await expect(
      database.transaction(function* (tx) {
        yield* enqueueMail(tx, {
          kind: "order_confirmation",
          to: "a@example.org",
          language: "en",
          // @ts-expect-error: the payload of an order confirmation is a basket id
          payload: { link: "http://x.test" },
        });
      }),
    ).rejects.toThrow();
  });

  it("retries a failed send after 1, 2, 4 … minutes and gives up after 8 attempts, never sending twice", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    let clock = new Date("2026-11-21T10:00:00.000Z");
    const now = () => clock;
    let calls = 0;
    const broken: MailTransport = {
      async send() {
        calls += 1;
        throw new Error("550 mailbox unavailable");
      },
    };

    expect(await deliverPendingMails(database, broken, config, { now })).toEqual({ sent: 0, failed: 1 });
    let row = await outboxRow(database, id);
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "550 mailbox unavailable",
      nextAttemptAt: "2026-11-21T10:01:00.000Z",
    });

    // Not due yet: nothing is sent.
    clock = new Date("2026-11-21T10:00:59.000Z");
    expect(await deliverPendingMails(database, broken, config, { now })).toEqual({ sent: 0, failed: 0 });
    expect(calls).toBe(1);

    const delays: number[] = [];
    while (row.status === "pending") {
      const due = new Date(row.nextAttemptAt ?? "");
      clock = due;
      await deliverPendingMails(database, broken, config, { now });
      row = await outboxRow(database, id);
      if (row.nextAttemptAt) delays.push((new Date(row.nextAttemptAt).getTime() - due.getTime()) / 60_000);
    }
    expect(delays).toEqual([2, 4, 8, 16, 32, 64]);
    expect(calls).toBe(MAX_MAIL_ATTEMPTS);
    expect(row).toMatchObject({ status: "failed", attempts: MAX_MAIL_ATTEMPTS, nextAttemptAt: null, sentAt: null });

    clock = new Date("2026-11-30T00:00:00.000Z");
    const working = recordingTransport();
    await deliverPendingMails(database, working, config, { now });
    expect(working.sent).toEqual([]);
  });

  it("sends a mail once when it succeeds on a retry", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    let clock = new Date("2026-11-21T10:00:00.000Z");
    const now = () => clock;
    const sent: number[] = [];
    let isDown = true;
    const flaky: MailTransport = {
      async send(mail) {
        if (isDown) throw new Error("connection refused");
        sent.push(mail.id);
      },
    };
    await deliverPendingMails(database, flaky, config, { now });
    isDown = false;
    clock = new Date("2026-11-21T10:01:00.000Z");
    await deliverPendingMails(database, flaky, config, { now });
    clock = new Date("2026-11-21T11:00:00.000Z");
    await deliverPendingMails(database, flaky, config, { now });
    expect(sent).toEqual([id]);
    expect(await outboxRow(database, id)).toMatchObject({
      status: "sent",
      attempts: 1,
      lastError: null,
      subject: "Reset your password",
    });
  });

  it("sends each mail once when two workers deliver at the same time", async () => {
    const ids = await enqueueResets(database, 35);
    // Two connections to one file stand for two processes on better-sqlite3. libSQL's local file allows one
    // client (the write queue serialises it; several processes go through a libSQL server), so on libSQL the two
    // workers share it and interleave at each await.
    const other = driver === "better-sqlite3" ? test.connectAgain() : database;
    const transport = recordingTransport();
    const [first, second] = await Promise.all([
      deliverPendingMails(database, transport, config),
      deliverPendingMails(other, transport, config),
    ]);
    expect(first.sent + second.sent).toBe(ids.length);
    expect(transport.sent.map((mail) => mail.id).sort((a, b) => a - b)).toEqual(ids);
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.every((row) => row.status === "sent")).toBe(true);
  });

  it("runs as a worker whose flush delivers what is pending now", async () => {
    const transport = recordingTransport();
    const worker = startMailWorker(database, config, { intervalMs: 60_000, transport });
    try {
      const ids = await enqueueResets(database, 3);
      await worker.flush();
      expect(transport.sent.map((mail) => mail.id)).toEqual(ids);
    } finally {
      await worker.stop();
    }
  });

  it("delivers the mails queued behind a slow one without waiting for it", async () => {
    const [slow = 0, ...others] = await enqueueResets(database, 6);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sent: number[] = [];
    const transport: MailTransport = {
      async send(mail) {
        if (mail.id === slow) await released;
        sent.push(mail.id);
      },
    };
    const delivery = deliverPendingMails(database, transport, config);
    await vi.waitFor(() => expect(sent.toSorted((a, b) => a - b)).toEqual(others), { timeout: 5_000 });
    expect((await outboxRow(database, slow)).status).toBe("pending");
    release();
    expect(await delivery).toEqual({ sent: 6, failed: 0 });
    expect(sent.at(-1)).toBe(slow);
  });

  it("stops a mail that outlasts its time limit and retries it later, sending the others", async () => {
    const [stuck = 0, ...others] = await enqueueResets(database, 3);
    const sent: number[] = [];
    let isStopped = false;
    // The limit is read on the worker's clock, which only this test moves: however slowly the machine renders
    // and sends the others, none of them outlasts it.
    let clock = new Date("2026-11-21T10:00:00.000Z");
    const transport: MailTransport = {
      async send(mail, signal) {
        if (mail.id === stuck) {
          await vi.waitFor(() => expect(sent.toSorted((a, b) => a - b)).toEqual(others), { timeout: 20_000 });
          clock = new Date("2026-11-21T10:00:00.300Z");
          await new Promise((_, reject) =>
            signal.addEventListener("abort", () => {
              isStopped = true;
              reject(signal.reason);
            }),
          );
        }
        sent.push(mail.id);
      },
    };
    const report = await deliverPendingMails(database, transport, config, {
      now: () => clock,
      timeLimitMs: 300,
      renewMs: 5,
    });
    expect(report).toEqual({ sent: 2, failed: 1 });
    expect(sent.toSorted((a, b) => a - b)).toEqual(others);
    expect(isStopped).toBe(true);
    expect(await outboxRow(database, stuck)).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "took longer than 0.3 s",
      nextAttemptAt: "2026-11-21T10:01:00.300Z",
      claimedBy: null,
    });
  });

  it("takes over at once the claims of a worker process that was killed", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    // A process of this machine that no longer exists claimed the mail for a whole lease, then died.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    await claimAs(database, id, createWorkerId(dead), new Date(Date.now() + CLAIM_LEASE_MS));
    const transport = recordingTransport();
    const started = performance.now();
    await deliverPendingMails(database, transport, config);
    console.info(`[mail] a killed worker's mail was sent ${Math.round(performance.now() - started)} ms later`);
    expect(transport.sent.map((mail) => mail.id)).toEqual([id]);
  });

  it("takes over the claim of a worker elsewhere once its lease has run out, and not before", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    const start = new Date("2026-11-21T10:00:00.000Z");
    // Another machine's worker: whether it lives cannot be known from here, only that it stopped renewing.
    await claimAs(database, id, OTHER_MACHINE_WORKER, new Date(start.getTime() + CLAIM_LEASE_MS));
    const transport = recordingTransport();
    await deliverPendingMails(database, transport, config, {
      now: () => new Date(start.getTime() + CLAIM_LEASE_MS - 1),
    });
    expect(transport.sent).toEqual([]);
    await deliverPendingMails(database, transport, config, { now: () => new Date(start.getTime() + CLAIM_LEASE_MS) });
    expect(transport.sent.map((mail) => mail.id)).toEqual([id]);
    expect(CLAIM_LEASE_MS).toBeLessThanOrEqual(30_000);
  });

  it("never takes a live worker's claim, however long its send lasts", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    const other = driver === "better-sqlite3" ? test.connectAgain() : database;
    // The leases run on a clock only this test moves: a busy machine slows the workers down, it never makes a
    // lease run out.
    let clock = new Date("2026-11-21T10:00:00.000Z").getTime();
    const timing = { leaseMs: 300, renewMs: 5, now: () => new Date(clock) };
    const sent: string[] = [];
    let startSending = () => {};
    const isSending = new Promise<void>((resolve) => {
      startSending = resolve;
    });
    let finishSending = () => {};
    const finished = new Promise<void>((resolve) => {
      finishSending = resolve;
    });
    const slow: MailTransport = {
      async send(mail) {
        startSending();
        await finished;
        sent.push(`slow ${mail.id}`);
      },
    };
    const eager: MailTransport = {
      async send(mail) {
        sent.push(`eager ${mail.id}`);
      },
    };
    const first = deliverPendingMails(database, slow, config, timing);
    await isSending;
    // For five leases, half a lease at a time: the first worker renews its claim, and another worker looking for
    // due mails finds none.
    for (let step = 1; step <= 10; step++) {
      clock += timing.leaseMs / 2;
      const renewedUntil = new Date(clock + timing.leaseMs).toISOString();
      await vi.waitFor(async () => expect((await outboxRow(database, id)).nextAttemptAt).toBe(renewedUntil), {
        timeout: 20_000,
      });
      expect(await deliverPendingMails(other, eager, config, timing)).toEqual({ sent: 0, failed: 0 });
    }
    finishSending();
    expect(await first).toEqual({ sent: 1, failed: 0 });
    expect(sent).toEqual([`slow ${id}`]);
  });

  it("stops sending a mail whose claim another worker holds, and leaves it to that worker", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    let wasAborted = false;
    const transport: MailTransport = {
      async send(_mail, signal) {
        // The claim changes hands while the mail is being sent (this worker was taken for dead).
        await claimAs(database, id, OTHER_MACHINE_WORKER, new Date(Date.now() + 60_000));
        await new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            wasAborted = true;
            reject(signal.reason);
          }),
        );
      },
    };
    const report = await deliverPendingMails(database, transport, config, { leaseMs: 400, renewMs: 50 });
    expect(report).toEqual({ sent: 0, failed: 0 });
    expect(wasAborted).toBe(true);
    expect(await outboxRow(database, id)).toMatchObject({
      status: "pending",
      attempts: 0,
      claimedBy: OTHER_MACHINE_WORKER,
    });
  });
});
