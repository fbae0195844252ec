// The product killed in the middle of a rush of paying buyers (SIGKILL: no shutdown code runs), then started
// again on the same database — a SQLite file, or a libSQL server over the wire with a second process serving on: what was paid stays paid, nothing unpaid is validated, the stock counters equal
// the rows, and every validated order gets its confirmation mail once, without waiting out a lease.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, createDatabase, eq, gt, schema } from "@ticketing/db";
import { type HranaStandIn, startHranaStandIn } from "@ticketing/db/hrana-stand-in/server";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "./env.ts";
import { freePort, startProduct } from "./product-process.fixtures.ts";
import { messageIdOf } from "./services/mail/transport.ts";
import { createOnSaleEvent, stockCountersAndRows } from "./test-support.ts";

const MAIL_FROM = "Ticketing <no-reply@example.org>";
/** Buyers before the kill, and new ones after the restart. */
const FIRST_RUSH = 36;
const SECOND_RUSH = 10;
/** Fewer tickets than the buyers want: some are refused as sold out. */
const STOCK = 60;
/** Every few buyers cancels on the payment page instead of paying. */
const CANCEL_EVERY = 6;
/** The sink answers a mail this long after receiving it: at the kill, mails are being sent. */
const SMTP_REPLY_MS = 400;

interface Accepted {
  messageId: string;
  to: string;
  subject: string;
  at: number;
}

/** A local SMTP server that accepts every mail after `replyMs`, unless the client hung up meanwhile. */
async function startSmtpSink(replyMs: number) {
  const accepted: Accepted[] = [];
  let inFlight = 0;
  const server: Server = createServer((socket: Socket) => {
    socket.setEncoding("latin1");
    socket.on("error", () => undefined);
    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    let buffer = "";
    let isData = false;
    reply("220 sink ESMTP");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (isData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          isData = false;
          inFlight += 1;
          setTimeout(() => {
            inFlight -= 1;
            if (socket.destroyed || !socket.writable) return;
            const header = (name: string) =>
              new RegExp(`^${name}:[ \\t]*(.*)$`, "im").exec(message.split("\r\n\r\n")[0] ?? "")?.[1] ?? "";
            accepted.push({
              messageId: header("Message-ID"),
              to: header("To"),
              subject: header("Subject"),
              at: Date.now(),
            });
            reply("250 2.0.0 queued");
          }, replyMs);
          continue;
        }
        const lineEnd = buffer.indexOf("\r\n");
        if (lineEnd < 0) return;
        const verb = buffer.slice(0, 4).toUpperCase();
        buffer = buffer.slice(lineEnd + 2);
        if (verb === "EHLO") reply("250 sink");
        else if (verb === "DATA") {
          isData = true;
          reply("354 go ahead");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else reply("250 OK");
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    accepted,
    inFlight: () => inFlight,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

interface Buyer {
  index: number;
  token?: string;
  basketId?: number;
  wantsToPay: boolean;
  /** The payment page said the payment went through. */
  sawPaid: boolean;
  soldOut: boolean;
}

/** A buyer's own address, as a proxy of TRUSTED_PROXIES forwards it. */
const addressOf = (buyer: Buyer) => `10.0.${buyer.index >> 8}.${(buyer.index & 255) + 1}`;

/** One buyer's path: log in, fill a basket, check out, pay (or cancel) on the demo payment page. */
function createShopper(base: (buyer: Buyer) => string, eventId: number, moduleId: number, nodeId: number) {
  async function call(buyer: Buyer, method: string, path: string, token?: string, body?: unknown) {
    const response = await fetch(`${base(buyer)}/api/v1${path}`, {
      method,
      headers: {
        // Each buyer comes from an address of their own, as in a real rush: the guest sign-ins one address may make
        // (RATE_RULES.anonymousLoginsPerAddress) are not what this test is about.
        "x-forwarded-for": addressOf(buyer),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  async function pay(buyer: Buyer, paymentUrl: string) {
    const url = new URL(paymentUrl);
    const outcome = buyer.wantsToPay ? "success" : "cancel";
    const answer = await fetch(`${base(buyer)}${url.pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": addressOf(buyer) },
      body: `sig=${url.searchParams.get("sig")}&outcome=${outcome}`,
      redirect: "manual",
    });
    buyer.sawPaid = answer.status === 303 && (answer.headers.get("location") ?? "").endsWith("/success");
  }

  async function checkoutAndPay(buyer: Buyer, token: string, basketId: number) {
    const checkout = await call(buyer, "POST", `/frontend/baskets/${basketId}/checkout`, token, {
      payment_method: "online",
      terms_accepted: true,
    });
    if (checkout.status !== 200) throw new Error(`checkout answered ${checkout.status}`);
    await pay(buyer, checkout.body.payment_url);
  }

  /** From the start; throws (a fetch error) when the product dies on the way. */
  async function shop(buyer: Buyer) {
    const login = await call(buyer, "POST", "/auth/anonymous-login", undefined, { active_module_id: moduleId });
    if (login.status !== 201) throw new Error(`signing in answered ${login.status}`);
    const token = login.body.access_token as string;
    buyer.token = token;
    const basket = await call(buyer, "POST", "/frontend/baskets", token, { event_id: eventId });
    buyer.basketId = basket.body.id as number;
    let added = 0;
    for (let count = 0; count < 1 + (buyer.index % 2); count++) {
      const line = await call(buyer, "POST", "/frontend/selected-nodes", token, {
        basket_id: buyer.basketId,
        node_id: nodeId,
      });
      if (line.status === 201) added += 1;
      else if (line.status !== 409) throw new Error(`adding answered ${line.status}`);
    }
    if (added === 0) {
      buyer.soldOut = true;
      return;
    }
    await call(buyer, "POST", "/frontend/billing-information", token, {
      basket_id: buyer.basketId,
      first_name: "Buyer",
      last_name: String(buyer.index),
      email: `buyer${buyer.index}@example.org`,
      address: "1 Rue du Lac",
      postal_code: "1006",
      city: "Lausanne",
      country: "CH",
    });
    await checkoutAndPay(buyer, token, buyer.basketId);
  }

  /** After the restart: a buyer whose path was cut goes on from where the order stands. */
  async function resume(buyer: Buyer) {
    if (!buyer.token || !buyer.basketId) return shop(buyer);
    const basket = await call(buyer, "GET", `/frontend/baskets/${buyer.basketId}`, buyer.token);
    if (basket.body.status === "payment_in_progress") {
      const intent = basket.body.payment_intents.find((candidate: { is_ongoing: boolean }) => candidate.is_ongoing);
      if (intent) await pay(buyer, intent.payment_url);
    } else if (basket.body.status === "new" && basket.body.items.length > 0 && !buyer.sawPaid) {
      await checkoutAndPay(buyer, buyer.token, buyer.basketId).catch(() => {
        // Cut before its billing information: the buyer starts over.
        buyer.token = undefined;
        return shop(buyer);
      });
    }
  }

  return { shop, resume };
}

/**
 * `file`: one process on a SQLite file, killed, then started again. `wire`: two processes on one libSQL server over
 * HTTP (the stand-in), buyers spread over both; one is killed, the other serves on, and a new one replaces it.
 */
describe.each(["file", "wire"] as const)("a crash in the middle of a rush (%s)", (mode) => {
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-crash-"));
  const children: ChildProcess[] = [];
  let standIn: HranaStandIn | undefined;
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    await standIn?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses no paid order, validates no unpaid one, keeps stock counters right and mails each order once", async () => {
    const started = performance.now();
    if (mode === "wire") standIn = await startHranaStandIn({ file: join(dataDir, "wire.sqlite") });
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_MAILS: "false",
      ...(standIn ? { DATABASE_URL: standIn.url, DB_DRIVER: "libsql" } : {}),
    });
    const setup = createDatabase({ url: config.databaseUrl });
    await setup.migrate();
    const { event, article, moduleId } = await createOnSaleEvent({ database: setup }, { stock: STOCK, price: 4500 });
    await setup.close();

    const sink = await startSmtpSink(SMTP_REPLY_MS);
    const env = {
      DATA_DIR: dataDir,
      // Whatever the environment running the tests says: this database, this driver.
      DATABASE_URL: config.databaseUrl,
      DB_DRIVER: standIn ? "libsql" : "better-sqlite3",
      // Both processes sign and check the same tokens, as replicas do.
      SECRET_KEY: "crash-test-secret-0123456789abcdef",
      TRUSTED_PROXIES: "127.0.0.1",
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM,
      LOG_MAILS: "false",
    };
    const start = async () => {
      const port = await freePort();
      const product = await startProduct({ ...env, PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      children.push(product.child);
      return { ...product, port };
    };
    // The first is the one killed; over the wire a second serves beside it throughout.
    const products = [await start()];
    if (mode === "wire") products.push(await start());
    const booted = performance.now();

    // Each buyer is served by one of the processes (a load balancer's choice), whichever is in that place now.
    const shopper = createShopper(
      (buyer) => `http://127.0.0.1:${products[buyer.index % products.length]?.port}`,
      event.id,
      moduleId,
      article.node.id,
    );
    const buyers: Buyer[] = Array.from({ length: FIRST_RUSH + SECOND_RUSH }, (_, index) => ({
      index,
      wantsToPay: index % CANCEL_EVERY !== CANCEL_EVERY - 1,
      sawPaid: false,
      soldOut: false,
    }));
    const cut = new Set<Buyer>();

    // The rush: a dozen buyers at a time; the kill comes once a third have paid and a mail is being sent.
    let killedAt = 0;
    const isKilled = () => killedAt > 0;
    const rush = (async () => {
      const queue = buyers.slice(0, FIRST_RUSH);
      await Promise.all(
        Array.from({ length: 12 }, async () => {
          for (let buyer = queue.shift(); buyer && !isKilled(); buyer = queue.shift())
            await shopper.shop(buyer).catch(() => cut.add(buyer));
          for (const left of queue.splice(0)) cut.add(left);
        }),
      );
    })();
    const watch = (async () => {
      const deadline = Date.now() + 30_000;
      while (!isKilled() && Date.now() < deadline) {
        if (buyers.filter((buyer) => buyer.sawPaid).length >= FIRST_RUSH / 3 && sink.inFlight() > 0) {
          products[0]?.child.kill("SIGKILL");
          killedAt = Date.now();
        }
        await new Promise((done) => setTimeout(done, 5));
      }
    })();
    await watch;
    expect(isKilled()).toBe(true);
    await rush;
    await products[0]?.exited;
    const paidBeforeKill = buyers.filter((buyer) => buyer.sawPaid).length;

    // What the killed process left claimed (leased to it, not due): mails it was sending.
    const afterKill = createDatabase({ url: config.databaseUrl });
    const claimedAtKill = (
      await afterKill.db
        .select()
        .from(schema.mailOutbox)
        .where(
          and(eq(schema.mailOutbox.status, "pending"), gt(schema.mailOutbox.nextAttemptAt, new Date().toISOString())),
        )
        .all()
    ).map((mail) => messageIdOf(mail, MAIL_FROM));
    await afterKill.close();
    expect(claimedAtKill.length).toBeGreaterThan(0);

    // The same database, a new process in the killed one's place (and port, as a new machine would have).
    const restartedAt = Date.now();
    products[0] = await start();
    const answeredAt = Date.now();
    await Promise.all([
      ...[...cut].map((buyer) => shopper.resume(buyer).catch(() => undefined)),
      ...buyers.slice(FIRST_RUSH).map((buyer) => shopper.shop(buyer)),
    ]);

    const database = createDatabase({ url: config.databaseUrl });
    try {
      const validated = async () =>
        (
          await database.db
            .select({ id: schema.baskets.id })
            .from(schema.baskets)
            .where(and(eq(schema.baskets.eventId, event.id), eq(schema.baskets.status, "validated")))
            .all()
        ).map((row) => row.id);
      const confirmations = () => sink.accepted.filter((mail) => mail.subject.startsWith("Your tickets for"));
      // Every validated order's mail arrives: the claims of the killed process are not waited out.
      const deadline = Date.now() + 45_000;
      while (new Set(confirmations().map((mail) => mail.messageId)).size < (await validated()).length) {
        if (Date.now() > deadline) break;
        await new Promise((done) => setTimeout(done, 50));
      }
      const claimedDeliveredAt = claimedAtKill.map(
        (messageId) => sink.accepted.find((mail) => mail.messageId === messageId && mail.at > killedAt)?.at ?? Infinity,
      );
      const retakenAt = Math.max(...claimedDeliveredAt);
      for (const product of products) product.child.kill("SIGTERM");
      await Promise.all(products.map((product) => product.exited));

      const validatedIds = await validated();
      const baskets = await database.db.select().from(schema.baskets).where(eq(schema.baskets.eventId, event.id)).all();
      const invoices = await database.db.select().from(schema.invoices).all();
      const outbox = await database.db
        .select()
        .from(schema.mailOutbox)
        .where(eq(schema.mailOutbox.kind, "order_confirmation"))
        .all();

      // No paid order lost: every payment a buyer saw go through is a validated order.
      const sawPaid = buyers.filter((buyer) => buyer.sawPaid).map((buyer) => buyer.basketId);
      expect(validatedIds).toEqual(expect.arrayContaining(sawPaid));
      // No order validated without its payment: validated exactly when its invoice is resolved, for its amount.
      for (const basket of baskets) {
        const resolved = invoices.filter((invoice) => invoice.basketId === basket.id && invoice.isResolved);
        expect({ basket: basket.id, isValidated: basket.status === "validated" }).toEqual({
          basket: basket.id,
          isValidated: resolved.length === 1,
        });
      }
      const cancelled = buyers.filter((buyer) => !buyer.wantsToPay && buyer.basketId).map((buyer) => buyer.basketId);
      expect(validatedIds.filter((id) => cancelled.includes(id))).toEqual([]);
      // The stock counters equal the rows they count, and never pass the stock.
      const stock = await stockCountersAndRows(database);
      for (const limit of stock) {
        expect(limit.counters).toEqual(limit.rows);
        expect(limit.counters.used).toBeLessThanOrEqual(limit.maximum);
      }
      // One confirmation per validated order, written with it, sent, and received once.
      expect(outbox.map((mail) => (mail.payload as { basket_id: number }).basket_id).sort()).toEqual(
        [...validatedIds].sort(),
      );
      expect(outbox.filter((mail) => mail.status !== "sent")).toEqual([]);
      const received = new Map<string, Accepted[]>();
      for (const mail of confirmations()) received.set(mail.messageId, [...(received.get(mail.messageId) ?? []), mail]);
      expect([...received.keys()].sort()).toEqual(outbox.map((mail) => messageIdOf(mail, MAIL_FROM)).sort());
      // A mail the sink accepted just before the kill, whose "sent" the process had no time to write, goes
      // again (same Message-ID, so a mailbox can drop it): the one duplicate SMTP cannot rule out, counted. It is
      // one the killed process held at the kill (told by its claim, not by a time window, which a busy machine
      // stretches).
      const twice = [...received.values()].filter((copies) => copies.length > 1);
      for (const copies of twice) {
        expect(copies).toHaveLength(2);
        expect(claimedAtKill).toContain(copies[0]?.messageId);
      }
      expect(retakenAt - restartedAt).toBeLessThan(30_000);

      const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      console.info(
        [
          `[crash, ${mode}] ${buyers.length} buyers, stock ${STOCK}: ${validatedIds.length} orders validated`,
          `(${paidBeforeKill} seen paid before the kill, ${sawPaid.length} in all),`,
          `${buyers.filter((buyer) => buyer.soldOut).length} sold out,`,
          `${cancelled.length} cancelled; ${cut.size} buyers cut by the kill;`,
          `${claimedAtKill.length} mails claimed by the killed process, sent ${seconds(retakenAt - restartedAt)} after`,
          `the restart began (the new process answered after ${seconds(answeredAt - restartedAt)});`,
          `${received.size} confirmations received, ${twice.length} twice;`,
          `stock used ${stock.map((limit) => limit.counters.used).join("/")} = rows;`,
          `first boot ${seconds(booted - started)}, whole run ${seconds(performance.now() - started)}`,
        ].join(" "),
      );
    } finally {
      await database.close();
      await sink.close();
    }
  }, 120_000);
});
