// Test support: a fresh migrated database and app per test file, on either driver (docs/style.md habit 7).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import { and, createDatabase, type Database, type Driver, desc, eq, run, schema, sql } from "@ticketing/db";
import { startHranaStandIn } from "@ticketing/db/hrana-stand-in/server";
import { afterAll, beforeAll, expect } from "vitest";
import { createApp } from "./app.ts";
import { type Config, loadConfig, withStoredSecrets } from "./env.ts";
import { AfterAnswer } from "./lib/after-answer.ts";
import { encryptSecret } from "./lib/secrets.ts";
import { createUser } from "./services/accounts/sessions.ts";
import { addArticle } from "./services/catalogue/catalogue.ts";
import { createEvent } from "./services/events/events.ts";
import { ticketKeysOf } from "./services/tickets/ticket-codes.ts";
import { type StripeStandIn, startStripeStandIn } from "./stripe-stand-in/server.ts";

export const DRIVERS: Driver[] = ["better-sqlite3", "libsql"];

/**
 * How a suite reaches its database: a driver on a local file, or `libsql-wire`, libSQL over the network protocol
 * (Hrana over HTTP, `DATABASE_URL=http://…`) to the stand-in server on a file of the suite's own.
 */
export type TestDriver = Driver | "libsql-wire";

/** The suites that hold the invariants (stock, payments, replicas, round trips) run a third time over the wire. */
export const WIRE_DRIVERS: TestDriver[] = [...DRIVERS, "libsql-wire"];

/** Where a test's database is: its URL and driver, and what to stop after it (the stand-in, over the wire). */
export async function databaseFor(
  driver: TestDriver,
  dataDir: string,
): Promise<{ env: Record<string, string>; driver: Driver; stop(): Promise<void> }> {
  if (driver !== "libsql-wire") return { env: { DB_DRIVER: driver }, driver, stop: async () => undefined };
  const standIn = await startHranaStandIn({ file: join(dataDir, "wire.sqlite") });
  return { env: { DB_DRIVER: "libsql", DATABASE_URL: standIn.url }, driver: "libsql", stop: () => standIn.close() };
}

export interface TestContext {
  app: ReturnType<typeof createApp>;
  database: Database;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
  /** JSON request to /api/v1; answers status, parsed body and headers. */
  call(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

/** `env` adds to the test's environment, e.g. STRIPE_API_URL for the Stripe stand-in. */
export async function createTestContext(
  testDriver: TestDriver = "better-sqlite3",
  env: Record<string, string> = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-test-"));
  const place = await databaseFor(testDriver, dataDir);
  const settings = loadConfig({
    DATA_DIR: dataDir,
    LOG_MAILS: "false",
    PUBLIC_URL: "http://localhost:3000",
    ...place.env,
    ...env,
  });
  const database = createDatabase({ url: settings.databaseUrl, driver: place.driver });
  await database.migrate();
  const config = await withStoredSecrets(settings, database);
  // The work a request leaves for after its answer is done before `call` returns; a failure of it fails the call.
  const failures: unknown[] = [];
  const afterAnswer = new AfterAnswer((error) => failures.push(error));
  const app = createApp({ database, config, ticketKeys: ticketKeysOf(config.ticketSigningKey), afterAnswer });
  return {
    app,
    database,
    config,
    dataDir,
    async close() {
      await database.close();
      await place.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers["content-type"] ??= "application/json";
      const response = await app.request(`/api/v1${path}`, {
        method,
        headers,
        body:
          options.body === undefined
            ? undefined
            : typeof options.body === "string"
              ? options.body
              : JSON.stringify(options.body),
      });
      const text = await response.text();
      await afterAnswer.settled();
      if (failures.length > 0) throw failures.shift();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {}
      return { status: response.status, body, headers: response.headers };
    },
  };
}

/**
 * The product served on a port of its own (the stand-in posts its webhooks to a real address) beside a Stripe
 * stand-in that the product's Stripe client talks to (STRIPE_API_URL).
 */
export interface StripeTestWorld {
  standIn: StripeStandIn;
  ctx: TestContext;
  /** The product's address, as the stand-in's webhook endpoints name it. */
  appUrl: string;
  close(): Promise<void>;
}

export async function startStripeWorld(driver: TestDriver): Promise<StripeTestWorld> {
  const standIn = await startStripeStandIn();
  const ctx = await createTestContext(driver, standIn.env);
  const server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: ctx.app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
  });
  return {
    standIn,
    ctx,
    appUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await standIn.close();
      await new Promise((resolve) => server.close(resolve));
      await ctx.close();
    },
  };
}

/**
 * The enclosing describe's own Stripe world on `driver` (the stand-in, the product served on a port): started before
 * its first test, closed after its last. `standIn` and `ctx` are filled in place; read `appUrl` from the world.
 */
export function useStripeWorld(driver: TestDriver): StripeTestWorld {
  const world = { standIn: {}, ctx: {}, appUrl: "", close: async () => {} } as StripeTestWorld;
  beforeAll(async () => {
    const started = await startStripeWorld(driver);
    Object.assign(world.standIn, started.standIn);
    Object.assign(world.ctx, started.ctx);
    world.appUrl = started.appUrl;
    world.close = started.close;
  });
  afterAll(() => world.close());
  return world;
}

/** The enclosing describe's own test context on `driver`: created before its first test, closed after its last. */
export function useTestContext(driver: TestDriver, env: Record<string, string> = {}): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    Object.assign(ctx, await createTestContext(driver, env));
  });
  afterAll(async () => ctx.close());
  return ctx;
}

/** A Stripe test-mode secret key of an account of its own at the stand-in. */
export const testStripeKey = () => `sk_test_${randomBytes(12).toString("hex")}`;

/** The headers of a French-speaking Swiss browser. */
export const FRENCH = { "accept-language": "fr-CH,fr;q=0.9" };

/** A value as a list query's JSON parameter (`?filter=…`). */
export const jsonParam = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** The password of every user the tests create. */
const PASSWORD = "correct-horse-battery-1!";

let counter = 0;
/** An organiser (with their personal unit) and a public event with one article of the given stock. */
export async function createOnSaleEvent(
  ctx: Pick<TestContext, "database">,
  input: { stock: number; price?: number; status?: "public" | "draft" },
) {
  counter += 1;
  const email = `organiser${counter}-${Date.now()}@example.org`;
  const password = PASSWORD;
  const organiser = await createUser(ctx.database, { email, password });
  const event = await createEvent(ctx.database, {
    unitId: organiser.personalUnitId as number,
    name: `Event ${counter}`,
    frontendTitle: `Event ${counter}`,
    frontendPath: `event-${counter}-${Date.now()}`,
    startDate: "2030-01-01T10:00:00.000Z",
    endDate: "2030-01-01T20:00:00.000Z",
  });
  const article = await addArticle(ctx.database, event.id, {
    title: "Entry",
    price: input.price ?? 2500,
    stock: input.stock,
  });
  if ((input.status ?? "public") === "public")
    await ctx.database.transaction(function* (tx) {
      yield* run(tx.update(schema.events).set({ status: "public" }).where(eq(schema.events.id, event.id)).run());
    });
  const module = await ctx.database.db
    .select()
    .from(schema.registrationModules)
    .where(eq(schema.registrationModules.eventId, event.id))
    .get();
  return { organiser, email, password, event, article, moduleId: module?.id as number };
}

/**
 * Each stock's counters (`node_limits.used`, `testing_used`, `waiting`, `testing_waiting`) beside what the held
 * selected nodes and the waiting list's entries linked to it say: they must always be equal (docs/design.md §4
 * "Stock", docs/decisions/0038).
 */
export async function stockCountersAndRows(database: Database) {
  const limits = await database.db.select().from(schema.nodeLimits).all();
  const stocks = [];
  for (const limit of limits) {
    const derived = await database.db
      .select({
        used: sql<number>`coalesce(sum(case when ${schema.selectedNodeLimits.isTesting} = 0 then 1 else 0 end), 0)`,
        testingUsed: sql<number>`coalesce(sum(case when ${schema.selectedNodeLimits.isTesting} = 1 then 1 else 0 end), 0)`,
      })
      .from(schema.selectedNodeLimits)
      .innerJoin(schema.selectedNodes, eq(schema.selectedNodes.id, schema.selectedNodeLimits.selectedNodeId))
      .where(and(eq(schema.selectedNodeLimits.limitId, limit.id), eq(schema.selectedNodes.status, "held")))
      .get();
    // What waiting-list entries hold (an offer not opened yet) and ask (in line): docs/decisions/0038.
    const entries = await database.db
      .select({
        held: sql<number>`coalesce(sum(case when e.state = 'offered' and e.basket_id is null and e.testing = 0
          then e.offered_quantity else 0 end), 0)`,
        testingHeld: sql<number>`coalesce(sum(case when e.state = 'offered' and e.basket_id is null and e.testing = 1
          then e.offered_quantity else 0 end), 0)`,
        waiting: sql<number>`coalesce(sum(case when e.state = 'waiting' and e.testing = 0 then e.quantity else 0 end), 0)`,
        testingWaiting: sql<number>`coalesce(sum(case when e.state = 'waiting' and e.testing = 1 then e.quantity else 0 end), 0)`,
      })
      .from(sql`waiting_list_entries e join waiting_list_entry_limits el on el.entry_id = e.id`)
      .where(sql`el.limit_id = ${limit.id}`)
      .get();
    stocks.push({
      maximum: limit.maximum,
      counters: {
        id: limit.id,
        used: limit.used,
        testingUsed: limit.testingUsed,
        waiting: limit.waiting,
        testingWaiting: limit.testingWaiting,
      },
      rows: {
        id: limit.id,
        used: Number(derived?.used) + Number(entries?.held),
        testingUsed: Number(derived?.testingUsed) + Number(entries?.testingHeld),
        waiting: Number(entries?.waiting),
        testingWaiting: Number(entries?.testingWaiting),
      },
    });
  }
  return stocks;
}

/** A buyer's billing information, as the ticket office sends it. */
export const BILLING = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.org",
  address: "1 Rue du Lac",
  postal_code: "1006",
  city: "Lausanne",
  country: "CH",
};

/** The buyer's billing step: BILLING, with `changes`, for their basket. */
export const submitBilling = (
  ctx: TestContext,
  buyer: { token: string; basketId: number },
  changes: Partial<typeof BILLING> = {},
) =>
  ctx.call("POST", "/frontend/billing-information", {
    token: buyer.token,
    body: { basket_id: buyer.basketId, ...BILLING, ...changes },
  });

let buyersMade = 0;
/** A client address no other buyer of this process had (198.18.0.0/15, the range set aside for tests). */
export function nextBuyerAddress() {
  buyersMade += 1;
  return `198.${18 + ((buyersMade >> 16) & 1)}.${(buyersMade >> 8) & 255}.${buyersMade & 255}`;
}

/**
 * A ticket-office buyer with an anonymous login and an empty basket; with `previewBy` (a staff token), staff
 * previewing their event's ticket office: a testing login and basket.
 */
export async function createBuyer(ctx: TestContext, eventId: number, moduleId: number, previewBy?: string) {
  const testing = previewBy !== undefined;
  const login = await ctx.call("POST", "/auth/anonymous-login", {
    token: previewBy,
    // Each buyer from an address of their own: guest sign-ins are limited per address (docs/decisions/0036).
    headers: { "x-real-ip": nextBuyerAddress() },
    body: { active_module_id: moduleId, ...(testing ? { is_testing: true } : {}) },
  });
  if (login.status !== 201) throw new Error(`anonymous login failed: ${JSON.stringify(login.body)}`);
  const token = login.body.access_token as string;
  const basket = await ctx.call("POST", "/frontend/baskets", {
    token,
    body: { event_id: eventId, ...(testing ? { testing: true } : {}) },
  });
  if (basket.status !== 201 || (testing && basket.body.testing !== true))
    throw new Error(`basket creation failed: ${JSON.stringify(basket.body)}`);
  return { token, basketId: basket.body.id as number, loginId: login.body.login.id as number };
}

type Buyer = { token: string; basketId: number };
type Sale = Pick<Awaited<ReturnType<typeof createOnSaleEvent>>, "event" | "moduleId" | "article">;

/** Puts a node (with the options given) into the buyer's basket. */
export async function addToBasket(ctx: TestContext, buyer: Buyer, nodeId: number, optionNodeIds?: number[]) {
  const added = await ctx.call("POST", "/frontend/selected-nodes", {
    token: buyer.token,
    body: { basket_id: buyer.basketId, node_id: nodeId, ...(optionNodeIds ? { option_node_ids: optionNodeIds } : {}) },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
}

/**
 * A buyer of the sale's article (staff previewing with `previewBy`): `count` of it in their basket, the first with
 * `firstOptions`, and their billing (BILLING with `billing`'s changes; none with null), ready to check out.
 */
export async function readyBuyer(
  ctx: TestContext,
  sale: Sale,
  options: {
    count?: number;
    billing?: Partial<typeof BILLING> | null;
    previewBy?: string;
    firstOptions?: number[];
  } = {},
) {
  const { count = 1, billing = {}, previewBy, firstOptions } = options;
  const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId, previewBy);
  for (let index = 0; index < count; index++)
    await addToBasket(ctx, buyer, sale.article.node.id, firstOptions && (index === 0 ? firstOptions : []));
  if (billing) {
    const given = await submitBilling(ctx, buyer, billing);
    expect(given.status, JSON.stringify(given.body)).toBe(201);
  }
  return buyer;
}

/** The buyer checks out (in `language`), paying online or at the point of sale; answers the raw response. */
export const checkOut = (ctx: TestContext, buyer: Buyer, method = "online", language = "en") =>
  ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
    token: buyer.token,
    body: { payment_method: method, terms_accepted: true },
    headers: { "accept-language": language },
  });

/** The buyer pays on the demo provider's page that their online checkout sent them to. */
export async function payOnDemoPage(ctx: TestContext, paymentUrl: string) {
  const url = new URL(paymentUrl);
  const pressed = await ctx.app.request(url.pathname, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `sig=${url.searchParams.get("sig")}&outcome=success`,
  });
  expect(pressed.status).toBe(303);
}

/** Staff mark a point-of-sale invoice paid: its basket is validated. Answers the answer's body. */
export async function markPaidByStaff(ctx: TestContext, staffToken: string, invoiceId: number) {
  const marked = await ctx.call("POST", `/invoices/${invoiceId}/mark-paid`, { token: staffToken, body: {} });
  expect(marked.status, JSON.stringify(marked.body)).toBe(200);
  expect(marked.body.basket_status).toBe("validated");
  return marked.body as { invoice_id: number; changed: boolean; basket_status: string };
}

/** A GET of a file (not JSON) from /api/v1, as `token` when given: the raw Response. */
export const download = (ctx: TestContext, path: string, token?: string, headers: Record<string, string> = {}) =>
  ctx.app.request(`/api/v1${path}`, {
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

export async function loginAs(ctx: TestContext, email: string, password: string) {
  const response = await ctx.call("POST", "/auth/login", { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return response.body.access_token as string;
}

/** A user with an account (and a personal unit) of their own, none of the event's, signed in. */
export async function signedInUser(ctx: TestContext, name: string, options: { isSuperuser?: boolean } = {}) {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`;
  const user = await createUser(ctx.database, { email, password: PASSWORD, ...options });
  return { user, email, token: await loginAs(ctx, email, PASSWORD) };
}

/** A member (not an owner) of the unit, signed in. */
export async function signedInMember(ctx: TestContext, unitId: number, name = "member") {
  const member = await signedInUser(ctx, name);
  await ctx.database.transaction(function* (tx) {
    yield* run(tx.insert(schema.memberships).values({ unitId, userId: member.user.id, role: "member" }).run());
  });
  return member;
}

/** Staff's POST of one of the event's back-office rows (`node-configurations`, `nodes`, …): answers its id. */
export const eventResourceCreator =
  (ctx: TestContext, token: string, eventId: number) => async (resource: string, body: Record<string, unknown>) => {
    const response = await ctx.call("POST", `/${resource}`, { token, body: { event_id: eventId, ...body } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.id as number;
  };

/**
 * A catalogue element under `parentId` (its configuration, node and cart configuration), with a price rule setting
 * its `price` and a stock of its own when given. Answers the ids.
 */
export async function addCatalogueElement(
  create: ReturnType<typeof eventResourceCreator>,
  element: {
    parentId: number;
    category: string;
    title: string;
    price?: number;
    stock?: { label: string; maximum: number };
  },
) {
  const configuration = await create("node-configurations", { category: element.category, title: element.title });
  const node = await create("nodes", {
    parent_id: element.parentId,
    configuration_id: configuration,
    cart_configuration_id: await create("node-cart-configurations", {}),
  });
  if (element.price !== undefined)
    await create("node-price-rules", {
      label: element.title,
      mode: "set",
      value: element.price,
      node_configuration_ids: [configuration],
    });
  const limit = element.stock
    ? await create("node-limits", { ...element.stock, node_configuration_ids: [configuration] })
    : undefined;
  return { node, configuration, limit };
}

/** How many articles real baskets hold of a stock: its `node_limits.used` counter. */
export const stockUsed = async (ctx: Pick<TestContext, "database">, limitId: number) =>
  (await ctx.database.db.select().from(schema.nodeLimits).where(eq(schema.nodeLimits.id, limitId)).get())?.used;

/** Every stock's counters equal what its held rows say (docs/design.md §4 "Stock"). */
export async function expectStockCountersMatchRows(ctx: Pick<TestContext, "database">) {
  for (const stock of await stockCountersAndRows(ctx.database)) expect(stock.counters).toEqual(stock.rows);
}

/** The newest mail queued for `to`, if any. */
export const lastMailTo = (ctx: Pick<TestContext, "database">, to: string) =>
  ctx.database.db
    .select()
    .from(schema.mailOutbox)
    .where(eq(schema.mailOutbox.to, to))
    .orderBy(desc(schema.mailOutbox.id))
    .get();

/** The link of the newest mail queued to `to`, "" when there is none. */
export const lastMailLink = async (ctx: Pick<TestContext, "database">, to: string) =>
  String((await lastMailTo(ctx, to))?.payload.link ?? "");

/** The newest mail queued, or the newest of one kind. */
export const lastMail = (ctx: Pick<TestContext, "database">, kind?: (typeof schema.mailOutbox.$inferSelect)["kind"]) =>
  ctx.database.db
    .select()
    .from(schema.mailOutbox)
    .where(kind ? eq(schema.mailOutbox.kind, kind) : undefined)
    .orderBy(desc(schema.mailOutbox.id))
    .get();

/**
 * Writes an event's row, or its communication settings, directly, as an older version or a moderator's
 * console would have left them: what the API itself would refuse to write.
 */
export async function writeEventRow(
  ctx: Pick<TestContext, "database">,
  eventId: number,
  values: Partial<typeof schema.events.$inferInsert>,
) {
  await ctx.database.transaction(function* (tx) {
    yield* run(tx.update(schema.events).set(values).where(eq(schema.events.id, eventId)).run());
  });
}

export async function writeCommunicationRow(
  ctx: Pick<TestContext, "database">,
  eventId: number,
  values: Partial<typeof schema.communicationSettings.$inferInsert>,
) {
  await ctx.database.transaction(function* (tx) {
    yield* run(
      tx
        .update(schema.communicationSettings)
        .set(values)
        .where(eq(schema.communicationSettings.eventId, eventId))
        .run(),
    );
  });
}

/** A unit's Stripe account, written encrypted as an owner's settings would (the API never answers them). */
export async function writeUnitStripeSecrets(
  ctx: Pick<TestContext, "database" | "config">,
  unitId: number,
  secrets: { secretKey: string; webhookSecret: string },
) {
  await ctx.database.transaction(function* (tx) {
    yield* run(
      tx
        .update(schema.units)
        .set({
          stripeSecretKeyEncrypted: encryptSecret(ctx.config.secretKey, secrets.secretKey),
          stripeWebhookSecretEncrypted: encryptSecret(ctx.config.secretKey, secrets.webhookSecret),
        })
        .where(eq(schema.units.id, unitId))
        .run(),
    );
  });
}
