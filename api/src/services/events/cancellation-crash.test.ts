// Issue 35's "done when" for cancelling an event: a cancellation of 200 paid orders (half paid on the demo provider,
// half on Stripe, through the Stripe stand-in) refunds each exactly once — also when the product is killed (SIGKILL:
// no shutdown code runs) half-way through, at the worst moment: Stripe has made a refund whose answer the product
// never heard. Started again on the same database, it carries on and asks Stripe again with the same credit note,
// the same idempotency key, and Stripe answers the refund it made.
//
// What it skips: the 200 orders are written straight into the database (baskets, lines, stock counters, paid
// invoices, payment intents), as 200 buyers' checkouts would have left them; the Stripe payments are real sessions
// paid at the stand-in. Buying through the ticket office is what the other suites test.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, type Database, eq, isNotNull, run, schema, sql } from "@ticketing/db";
import Stripe from "stripe";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../env.ts";
import { freePort, startProduct } from "../../product-process.fixtures.ts";
import { type StripeStandIn, startStripeStandIn } from "../../stripe-stand-in/server.ts";
import { createOnSaleEvent, stockCountersAndRows, writeUnitStripeSecrets } from "../../test-support.ts";
import { writeInvoice } from "../invoices/invoice-writing.ts";

const ORDERS = 200;
const PRICE = 1500;
/** The product is killed when Stripe has made this many refunds, before it hears of the last one. */
const KILL_AT_STRIPE_REFUND = 30;
const SECRET_KEY = "cancellation-crash-secret-0123456789";

/** The product on a port of its own, its public address that port's. */
async function startProductHere(env: Record<string, string>) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return { ...(await startProduct({ ...env, PUBLIC_URL: url }, port)), url };
}

/**
 * Between the product and the stand-in: passes every call through, and counts the refunds Stripe made and those it
 * answered from its idempotency store. `onRefundMade` is told of each refund Stripe made before its answer goes back;
 * when it answers false the answer is held (the product is being killed: it never hears it).
 */
async function startStripeProxy(standIn: StripeStandIn, onRefundMade: (made: number) => boolean) {
  const seen = { made: 0, replayed: 0, replayedKeys: [] as string[] };
  const server = createHttpServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string" && !["host", "connection", "content-length"].includes(name))
        headers.set(name, value);
    const answer = await fetch(`${standIn.url}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "GET" ? undefined : Buffer.concat(chunks),
    });
    const body = await answer.text();
    if (req.method === "POST" && req.url?.startsWith("/v1/refunds") && answer.ok) {
      if (answer.headers.get("idempotent-replayed") === "true") {
        seen.replayed += 1;
        seen.replayedKeys.push(String(req.headers["idempotency-key"]));
      } else {
        seen.made += 1;
        if (!onRefundMade(seen.made)) return;
      }
    }
    res.writeHead(answer.status, {
      "content-type": answer.headers.get("content-type") ?? "application/json",
      "request-id": answer.headers.get("request-id") ?? "req_proxy",
    });
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** A Checkout Session paid at the stand-in: its PaymentIntent's id. */
async function paidAtStripe(stripe: Stripe): Promise<string> {
  const session = await stripe.checkout.sessions.create({
    mode: "payment",
    line_items: [{ price_data: { currency: "chf", product_data: { name: "Entry" }, unit_amount: PRICE }, quantity: 1 }],
    success_url: "http://127.0.0.1/success",
    cancel_url: "http://127.0.0.1/cancel",
  });
  const paid = await fetch(String(session.url), { method: "POST", redirect: "manual" });
  expect(paid.status).toBe(303);
  const done = await stripe.checkout.sessions.retrieve(session.id);
  return String(done.payment_intent);
}

/** 200 paid orders of one article each, as checkouts paid on the demo provider or on Stripe would leave them. */
async function writePaidOrders(
  database: Database,
  sale: Awaited<ReturnType<typeof createOnSaleEvent>>,
  stripePayments: string[],
) {
  const orders: { basketId: number; module: "demo" | "stripe"; paymentIntent: string | null }[] = [];
  await database.transaction(function* (tx) {
    for (let index = 0; index < ORDERS; index++) {
      const module = index % 2 === 0 ? "demo" : "stripe";
      const login = yield* run(
        tx
          .insert(schema.frontendLogins)
          .values({ eventId: sale.event.id, method: "anonymous", username: `buyer-${index}` })
          .returning()
          .get(),
      );
      const billing = yield* run(
        tx
          .insert(schema.billingInformation)
          .values({
            firstName: "Buyer",
            lastName: String(index),
            email: `buyer${index}@example.org`,
            address: "1 Rue du Lac",
            postalCode: "1006",
            city: "Lausanne",
            country: "CH",
            createdById: login.id,
          })
          .returning()
          .get(),
      );
      const basket = yield* run(
        tx
          .insert(schema.baskets)
          .values({
            eventId: sale.event.id,
            createdById: login.id,
            status: "validated",
            billingInformationId: billing.id,
            language: index % 3 === 0 ? "fr" : "en",
            unikey: randomBytes(6).toString("hex").toUpperCase(),
            expiresAt: "2030-01-01T00:00:00.000Z",
          })
          .returning()
          .get(),
      );
      const line = yield* run(
        tx
          .insert(schema.selectedNodes)
          .values({
            basketId: basket.id,
            nodeId: sale.article.node.id,
            configurationId: sale.article.configuration.id,
            title: "Entry",
            isArticle: true,
            price: PRICE,
          })
          .returning()
          .get(),
      );
      yield* run(
        tx
          .insert(schema.selectedNodeLimits)
          .values({ selectedNodeId: line.id, limitId: sale.article.limit.id, isTesting: false })
          .run(),
      );
      const invoice = yield* writeInvoice(tx, {
        basket,
        unitId: sale.event.unitId,
        amount: PRICE,
        dueDate: null,
        resolvedAt: "2029-12-01T10:00:00.000Z",
        lines: [{ selectedNodeId: line.id, title: "Entry", amount: PRICE }],
      });
      const paymentIntent = module === "stripe" ? (stripePayments[orders.length >> 1] ?? null) : null;
      yield* run(
        tx
          .insert(schema.paymentIntents)
          .values({
            invoiceId: invoice.id,
            createdById: login.id,
            moduleKey: module,
            pspId: module === "stripe" ? `cs_written_${index}` : `demo_${index}_${randomBytes(4).toString("hex")}`,
            pspPaymentId: paymentIntent,
          })
          .run(),
      );
      orders.push({ basketId: basket.id, module, paymentIntent });
    }
    yield* run(
      tx
        .update(schema.nodeLimits)
        .set({ used: sql`${schema.nodeLimits.used} + ${ORDERS}` })
        .where(eq(schema.nodeLimits.id, sale.article.limit.id))
        .run(),
    );
  });
  return orders;
}

describe("cancelling an event of 200 paid orders, killed half-way", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-cancellation-"));
  const children: ChildProcess[] = [];
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    for (const close of closing) await close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("refunds each order exactly once, through its module, and carries on after the restart", async () => {
    const standIn = await startStripeStandIn();
    closing.push(() => standIn.close());
    let killed: ChildProcess | undefined;
    const proxy = await startStripeProxy(standIn, (made) => {
      if (made !== KILL_AT_STRIPE_REFUND || !killed) return true;
      // Stripe made this refund; the product dies before it hears so.
      killed.kill("SIGKILL");
      return false;
    });
    closing.push(() => proxy.close());

    const config = loadConfig({ DATA_DIR: dataDir, SECRET_KEY, LOG_MAILS: "false" });
    const setup = createDatabase({ url: config.databaseUrl });
    await setup.migrate();
    const sale = await createOnSaleEvent({ database: setup }, { stock: ORDERS + 10, price: PRICE });
    const secretKey = `sk_test_${randomBytes(12).toString("hex")}`;
    await writeUnitStripeSecrets(
      { database: setup, config: { ...config, secretKey: SECRET_KEY } as never },
      sale.event.unitId,
      {
        secretKey,
        webhookSecret: "whsec_cancellation_crash",
      },
    );
    const stripe = new Stripe(secretKey, {
      host: "127.0.0.1",
      port: standIn.port,
      protocol: "http",
      maxNetworkRetries: 0,
    });
    const stripePayments: string[] = [];
    for (let index = 0; index < ORDERS / 2; index++) stripePayments.push(await paidAtStripe(stripe));
    const orders = await writePaidOrders(setup, sale, stripePayments);
    await setup.close();

    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: config.databaseUrl,
      DB_DRIVER: "better-sqlite3",
      SECRET_KEY,
      STRIPE_API_URL: proxy.url,
      LOG_MAILS: "false",
    };
    const first = await startProductHere(env);
    children.push(first.child);
    killed = first.child;
    const signIn = await fetch(`${first.url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: sale.email, password: sale.password }),
    });
    const token = ((await signIn.json()) as { access_token: string }).access_token;
    const cancelled = await fetch(`${first.url}/api/v1/events/${sale.event.id}/cancellation`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ message: "Cancelled: the hall flooded.", message_fr: "Annulé : la salle est inondée." }),
    });
    expect(cancelled.status).toBe(201);
    await first.exited;
    expect(first.child.signalCode).toBe("SIGKILL");

    // At the kill: some refunded, the rest not; one basket with its credit note pending, which Stripe paid.
    const database = createDatabase({ url: config.databaseUrl });
    closing.push(() => database.close());
    const rowsNow = () => database.db.select().from(schema.eventCancellationBaskets).all();
    const atKill = await rowsNow();
    const refundedAtKill = atKill.filter((row) => row.state === "refunded").length;
    expect(refundedAtKill).toBeGreaterThan(KILL_AT_STRIPE_REFUND);
    expect(refundedAtKill).toBeLessThan(ORDERS);
    const cut = atKill.filter((row) => row.state === "refunding");
    expect(cut).toHaveLength(1);
    const cutNote = cut[0]?.creditNoteId;
    expect(cutNote).toEqual(expect.any(Number));

    // Started again on the same database: it carries on by itself.
    const restartedAt = performance.now();
    const second = await startProductHere(env);
    children.push(second.child);
    const deadline = Date.now() + 60_000;
    while ((await rowsNow()).some((row) => row.state !== "refunded")) {
      if (Date.now() > deadline) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    const progress = await fetch(`${second.url}/api/v1/events/${sale.event.id}/cancellation`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await progress.json()).toMatchObject({
      is_cancelled: true,
      orders_to_refund: ORDERS,
      refunded: ORDERS,
      failed: 0,
      in_progress: 0,
      refunded_amount: ORDERS * PRICE,
      mails_queued: ORDERS,
      is_done: true,
    });
    second.child.kill("SIGTERM");
    await second.exited;
    console.info(
      `cancellation crash: killed with ${refundedAtKill} of ${ORDERS} orders refunded (Stripe had made ` +
        `${KILL_AT_STRIPE_REFUND}); the rest refunded ${((performance.now() - restartedAt) / 1000).toFixed(1)} s ` +
        `after the restart; Stripe replays: ${proxy.seen.replayed}`,
    );

    // The cut refund was asked again with its own credit note's key, and Stripe answered the refund it had made.
    expect(proxy.seen.replayedKeys).toEqual([`refund-${cutNote}`]);
    expect(proxy.seen.made).toBe(ORDERS / 2);
    // Each Stripe payment refunded once, in full; each basket one credit note, resolved, for what it paid.
    for (const order of orders.filter((o) => o.module === "stripe"))
      expect(standIn.refundsOf(String(order.paymentIntent)).map((refund) => refund.amount)).toEqual([PRICE]);
    const notes = await database.db
      .select()
      .from(schema.invoices)
      .where(isNotNull(schema.invoices.relatedInvoiceId))
      .all();
    for (const order of orders) {
      const own = notes.filter((note) => note.basketId === order.basketId);
      expect(own.map((note) => [note.amount, note.isResolved, note.isCancelled])).toEqual([[-PRICE, true, false]]);
    }
    expect(notes.find((note) => note.id === cutNote)?.pspRefundId).toMatch(/^re_/);
    // Every buyer mailed once, in their language; the stock given back.
    const mails = await database.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.kind, "event_cancelled"))
      .all();
    const mailedBaskets = mails.map((mail) => (mail.payload as { basket_id: number }).basket_id).sort((a, b) => a - b);
    expect(mailedBaskets).toEqual(orders.map((order) => order.basketId).sort((a, b) => a - b));
    for (const stock of await stockCountersAndRows(database)) expect(stock.counters).toEqual(stock.rows);
    const baskets = await database.db
      .select()
      .from(schema.baskets)
      .where(eq(schema.baskets.eventId, sale.event.id))
      .all();
    expect(baskets.every((basket) => basket.status === "refunded")).toBe(true);
  }, 180_000);
});
