// Webhooks across a kill -9 of the API (docs/decisions/0045-webhooks.md): a real receiver on this machine, checking
// signatures and taking each `Webhook-Id` once as the README documents, gets each of the six event types exactly
// once. Both windows of a crash are crossed: killed while its deliveries were queued and in flight, unanswered (after
// the restart each is delivered once), and killed after the receiver answered but before the delivery was marked
// (it comes again with the same id, which the receiver's dedupe turns into once).
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, eq, run, schema } from "@ticketing/db";
import { WEBHOOK_EVENT_TYPES } from "@ticketing/shared/constants";
import BetterSqlite3 from "better-sqlite3";
import { sign } from "hono/jwt";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig, withStoredSecrets } from "./env.ts";
import { freePort, startProduct } from "./product-process.fixtures.ts";
import { setAccessMethods } from "./services/buyers/logins.ts";
import { expireUnpaidPayments } from "./services/checkout/expired-payments.ts";
import { createTicketCode, ticketKeysOf } from "./services/tickets/ticket-codes.ts";
import { type Receiver, startReceiver } from "./services/webhooks/receiver.fixtures.ts";
import { BILLING, createOnSaleEvent } from "./test-support.ts";

async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

describe("webhooks across a kill -9 of the API", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-webhooks-crash-"));
  const children: ChildProcess[] = [];
  let receiver: Receiver | undefined;
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("delivers each of the six events exactly once to a receiver that takes each id once", async () => {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_MAILS: "false" });
    const setup = createDatabase({ url: config.databaseUrl });
    await setup.migrate();
    const { ticketSigningKey } = await withStoredSecrets(config, setup);
    // Three tickets: two for A, one for C; B waits in line for one.
    const sale = await createOnSaleEvent({ database: setup }, { stock: 3, price: 2500 });
    await setup.transaction(function* (tx) {
      yield* setAccessMethods(tx, sale.event.id, ["anonymous", "third_party"]);
      yield* run(
        tx
          .insert(schema.waitingLists)
          .values({ eventId: sale.event.id, offerMinutes: 60, accepting: true, automatic: true })
          .run(),
      );
    });
    const thirdParty = await setup.db
      .select()
      .from(schema.eventAccessMethods)
      .where(eq(schema.eventAccessMethods.eventId, sale.event.id))
      .all();
    const thirdPartyKey = thirdParty.find((method) => method.method === "third_party")?.secretKey as string;

    const secret = { value: "" };
    receiver = await startReceiver(() => secret.value);
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: config.databaseUrl,
      DB_DRIVER: "better-sqlite3",
      SECRET_KEY: "webhooks-crash-secret-0123456789abcdef",
      LOG_MAILS: "false",
    };
    let port = await freePort();
    const start = async () => {
      const product = await startProduct({ ...env, PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      children.push(product.child);
      return product;
    };
    let product = await start();
    const base = () => `http://127.0.0.1:${port}`;
    const call = async (method: string, path: string, token?: string, body?: unknown) => {
      const response = await fetch(`${base()}/api/v1${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the API answered
      return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
    };
    const expectStatus = (answer: { status: number; body: unknown }, status: number) =>
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);

    const staff = (await call("POST", "/auth/login", undefined, { email: sale.email, password: sale.password })).body
      .access_token as string;
    const unitId = sale.organiser.personalUnitId as number;
    const created = await call("POST", `/units/${unitId}/webhooks`, staff, {
      url: receiver.url,
      description: "Crash test",
      events: WEBHOOK_EVENT_TYPES,
    });
    expectStatus(created, 201);
    secret.value = created.body.secret;

    const guest = async (count: number) => {
      const login = await call("POST", "/auth/anonymous-login", undefined, { active_module_id: sale.moduleId });
      const token = login.body.access_token as string;
      const basket = await call("POST", "/frontend/baskets", token, { event_id: sale.event.id });
      for (let i = 0; i < count; i++)
        expectStatus(
          await call("POST", "/frontend/selected-nodes", token, {
            basket_id: basket.body.id,
            node_id: sale.article.node.id,
          }),
          201,
        );
      expectStatus(
        await call("POST", "/frontend/billing-information", token, { basket_id: basket.body.id, ...BILLING }),
        201,
      );
      const checkout = await call("POST", `/frontend/baskets/${basket.body.id}/checkout`, token, {
        payment_method: "online",
        terms_accepted: true,
      });
      expectStatus(checkout, 200);
      return { token, basketId: basket.body.id as number, paymentUrl: checkout.body.payment_url as string };
    };
    const pay = async (paymentUrl: string) => {
      const url = new URL(paymentUrl);
      const answer = await fetch(`${base()}${url.pathname}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `sig=${url.searchParams.get("sig")}&outcome=success`,
        redirect: "manual",
      });
      expect(answer.status).toBe(303);
    };

    // 1. The first window: the receiver holds every request unanswered, and the process is killed with its
    // deliveries queued and in flight. A pays (order.paid); B joins the list, one of A's tickets is refunded
    // (order.refunded) and offered to B (waiting_list.offer).
    receiver.mode = "hold";
    const a = await guest(2);
    const c = await guest(1);
    await pay(a.paymentUrl);
    const email = "in-line@example.org";
    const proved = await call("POST", "/auth/third-party-login", undefined, {
      active_module_id: sale.moduleId,
      token: await sign({ email, exp: Math.floor(Date.now() / 1000) + 600 }, thirdPartyKey, "HS256"),
    });
    expectStatus(proved, 200);
    const joined = await call("POST", "/frontend/waiting-list", proved.body.access_token, {
      event_id: sale.event.id,
      node_id: sale.article.node.id,
      quantity: 1,
    });
    expectStatus(joined, 201);
    const lines = await setup.db
      .select()
      .from(schema.selectedNodes)
      .where(eq(schema.selectedNodes.basketId, a.basketId))
      .orderBy(schema.selectedNodes.id)
      .all();
    const refund = await call("POST", `/baskets/${a.basketId}/refunds`, staff, {
      item_ids: [lines[0]?.id],
      reason: "Cannot come",
    });
    expectStatus(refund, 201);
    await until("three deliveries in flight", () => new Set(receiver?.seen.map((seen) => seen.id)).size === 3);
    product.child.kill("SIGKILL");
    await product.exited;
    receiver.release();
    expect(receiver.taken).toEqual([]);
    const firstIds = new Set(receiver.seen.map((seen) => seen.id));

    // After the restart (a new port, as a new machine would have), each is delivered once, without waiting out
    // the killed process's claims.
    receiver.mode = 200;
    port = await freePort();
    const restartedAt = Date.now();
    product = await start();
    await until("the three delivered", () => receiver?.taken.length === 3);
    expect(Date.now() - restartedAt).toBeLessThan(20_000);
    expect(new Set(receiver.taken.map((taken) => taken.id))).toEqual(firstIds);

    // 2. The second window: the receiver takes the check-in and, before it answers, the test holds the database's
    // write lock, so the process cannot mark the delivery; it is killed there.
    const lock = new BetterSqlite3(join(dataDir, "ticketing.sqlite"));
    lock.pragma("busy_timeout = 10000");
    let answered = false;
    receiver.onTaken = (taken) => {
      if (taken.payload.type !== "ticket.checked_in") return;
      lock.exec("BEGIN IMMEDIATE");
      answered = true;
    };
    const staffAgain = (await call("POST", "/auth/login", undefined, { email: sale.email, password: sale.password }))
      .body.access_token as string;
    const code = createTicketCode(ticketKeysOf(ticketSigningKey), {
      eventId: sale.event.id,
      basketId: a.basketId,
      itemId: lines[1]?.id as number,
    });
    expectStatus(await call("POST", `/events/${sale.event.id}/check-ins`, staffAgain, { code }), 201);
    await until("the check-in answered", () => answered);
    // The answer is on its way back; the process waits for the lock to mark it. Killed there.
    await new Promise((done) => setTimeout(done, 300));
    product.child.kill("SIGKILL");
    await product.exited;
    lock.exec("ROLLBACK");
    lock.close();
    receiver.onTaken = undefined;
    const checkIn = receiver.taken.find((taken) => taken.payload.type === "ticket.checked_in");
    const marked = await setup.db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.messageId, checkIn?.id as string))
      .get();
    expect(marked).toMatchObject({ status: "pending", attempts: 0 });

    port = await freePort();
    product = await start();
    // It comes again with the same id: the receiver sees it twice, and takes it once.
    await until("the check-in sent again", () => receiver?.seen.filter((seen) => seen.id === checkIn?.id).length === 2);

    // 3. The rest, with the process up: the event closed (event.status_changed), and C's payment term ran out
    // (order.cancelled, by the sweep's own code on the same database).
    const staffThird = (await call("POST", "/auth/login", undefined, { email: sale.email, password: sale.password }))
      .body.access_token as string;
    expectStatus(await call("PUT", `/events/${sale.event.id}`, staffThird, { status: "closed" }), 200);
    expect(await expireUnpaidPayments(setup, new Date(Date.now() + 365 * 86_400_000))).toEqual([c.basketId]);
    await until("all six taken", () => receiver?.taken.length === 6);
    await until("every delivery marked", async () => {
      const rows = await setup.db.select().from(schema.webhookDeliveries).all();
      return rows.length === 6 && rows.every((row) => row.status === "delivered");
    });
    product.child.kill("SIGTERM");
    await product.exited;

    // Each type exactly once, each signed with the endpoint's secret, none refused.
    expect(receiver.taken.map((taken) => taken.payload.type).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(receiver.seen.every((seen) => seen.verdict.ok)).toBe(true);
    // Only the deliveries cut by the kills came twice, with their ids: three unanswered, one answered.
    const counts = new Map<string, number>();
    for (const seen of receiver.seen) counts.set(seen.id, (counts.get(seen.id) ?? 0) + 1);
    const twice = [...counts].filter(([, count]) => count > 1).map(([id]) => id);
    expect(twice.sort()).toEqual([...firstIds, checkIn?.id].sort());
    await setup.close();
  }, 120_000);
});
