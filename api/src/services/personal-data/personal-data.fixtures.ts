// What the personal-data tests share (docs/decisions/0046): a buyer with a distinctive email, name, address and form
// answers across baskets in every state of two units' events (paid and checked in, refunded, pending, a waiting-list
// entry, mails sent and queued), another buyer beside them, and a walk of every column of every table.
import { type Database, eq, inArray, run, schema, sql } from "@ticketing/db";
import { WEBHOOK_EVENT_TYPES } from "@ticketing/shared/constants";
import ExcelJS from "exceljs";
import { sign } from "hono/jwt";
import { expect } from "vitest";
import {
  addToBasket,
  checkOut,
  createBuyer,
  createOnSaleEvent,
  download,
  eventResourceCreator,
  loginAs,
  markPaidByStaff,
  payOnDemoPage,
  readyBuyer,
  type TestContext,
  writeEventRow,
} from "../../test-support.ts";
import { setAccessMethods } from "../buyers/logins.ts";
import { deliverPendingMails } from "../mail/delivery.ts";
import { recordingTransport } from "../mail/mail.fixtures.ts";
import { createTicketCode, ticketKeysOf } from "../tickets/ticket-codes.ts";

/** The buyer's email as they typed it at checkout, and as support types it (other case, spaces). */
export const EMAIL = "Zygmunt.Quorra-7@Example.ORG";
export const TYPED = "  ZYGMUNT.quorra-7@example.org ";
export const BUYER = {
  email: EMAIL,
  first_name: "Zygmunt",
  last_name: "Quorrabelle",
  address: "77 Rue Xylophonique",
  postal_code: "QZ 4471",
  city: "Wexlerville",
  country: "CH",
};
export const ANSWERS = { badge: "Zephyrine Badgeword", phone: "+41 79 555 01 23" };
/** What must appear nowhere once erased, in lower case: the email, names, address and answers. */
export const NEEDLES = [
  "zygmunt.quorra-7@example.org",
  "zygmunt",
  "quorrabelle",
  "xylophonique",
  "qz 4471",
  "wexlerville",
  "zephyrine",
  "badgeword",
  "79 555 01 23",
];
export const OTHER = { email: "ottilie.other@example.org", first_name: "Ottilie", last_name: "Vandersloot" };

type Sale = Awaited<ReturnType<typeof createOnSaleEvent>>;
type Shopper = { token: string; basketId: number };

/** Every place of the database holding one of `needles` (any case): `table.column #rowid: needle`. */
export async function placesHolding(database: Database, needles: string[]): Promise<string[]> {
  const tables = await database.db.all<{ name: string }>(
    sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const rows = await database.db.all<Record<string, unknown>>(
      sql`select rowid as __rowid, * from ${sql.identifier(name)}`,
    );
    for (const row of rows)
      for (const [column, value] of Object.entries(row)) {
        if (value === null || value === undefined || column === "__rowid") continue;
        const bytes =
          value instanceof ArrayBuffer ? Buffer.from(value) : value instanceof Uint8Array ? Buffer.from(value) : null;
        const text = (bytes ? `${bytes.toString("utf8")}\n${bytes.toString("latin1")}` : String(value)).toLowerCase();
        for (const needle of needles)
          if (text.includes(needle)) found.push(`${name}.${column} #${row.__rowid}: ${needle}`);
      }
  }
  return found;
}

/** Every text of an xlsx file's sheets. */
export async function xlsxText(bytes: Buffer): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const texts: string[] = [];
  for (const sheet of workbook.worksheets)
    sheet.eachRow((row) => {
      row.eachCell((cell) => {
        texts.push(String(cell.value));
      });
    });
  return texts.join("\n");
}

/** A download's bytes, after checking it succeeded. */
export async function downloaded(ctx: TestContext, path: string, token: string) {
  const response = await download(ctx, path, token);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(response.status, `${path}: ${bytes.toString().slice(0, 300)}`).toBe(200);
  return bytes;
}

/** The invoices of baskets, with their lines: what an erasure must leave as it was. */
export async function invoicesOf(database: Database, basketIds: number[]) {
  const invoices = await database.db
    .select({
      id: schema.invoices.id,
      number: schema.invoices.number,
      amount: schema.invoices.amount,
      createdAt: schema.invoices.createdAt,
      dueDate: schema.invoices.dueDate,
      resolvedAt: schema.invoices.resolvedAt,
    })
    .from(schema.invoices)
    .where(inArray(schema.invoices.basketId, basketIds))
    .orderBy(schema.invoices.id)
    .all();
  const lines = await database.db
    .select({ id: schema.invoiceLines.id, title: schema.invoiceLines.title, amount: schema.invoiceLines.amount })
    .from(schema.invoiceLines)
    .where(
      inArray(
        schema.invoiceLines.invoiceId,
        invoices.map((invoice) => invoice.id),
      ),
    )
    .orderBy(schema.invoiceLines.id)
    .all();
  return { invoices, lines };
}

/**
 * The world: unit A's event (a form with a badge name and a phone) where the buyer has a paid basket of two tickets
 * (one checked in), a refunded one and a pending one, and another buyer a paid one; unit B's event where the buyer
 * has a paid basket, then waits in line for its sold-out article, signed in with their email. The first mails are
 * sent; a confirmation sent again and the waiting list's are queued.
 */
export async function buyerWorld(ctx: TestContext) {
  const a = await createOnSaleEvent(ctx, { stock: 20, price: 4500, status: "draft" });
  const staffA = await loginAs(ctx, a.email, a.password);
  const create = eventResourceCreator(ctx, staffA, a.event.id);
  const group = await create("node-extra-info-groups", {
    name: "Attendee",
    node_configuration_ids: [a.article.configuration.id],
  });
  const badge = await create("node-extra-infos", { group_id: group, name: "Name on badge", type: "text", order: 0 });
  const phone = await create("node-extra-infos", { group_id: group, name: "Phone", type: "phone", order: 1 });
  await writeEventRow(ctx, a.event.id, { status: "public", moderationStatus: "validated", isPointOfSaleEnabled: true });
  // Unit A's webhooks hear of every order and check-in: their deliveries are among the rows the erasure's walk reads.
  const hook = await ctx.call("POST", `/units/${a.event.unitId}/webhooks`, {
    token: staffA,
    body: { url: "https://hooks.example.org/in", events: [...WEBHOOK_EVENT_TYPES] },
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);

  async function answer(shopper: Shopper, values = ANSWERS) {
    const forms = await ctx.call("GET", `/frontend/baskets/${shopper.basketId}/forms`, { token: shopper.token });
    for (const { item_id: itemId } of forms.body as { item_id: number }[]) {
      const saved = await ctx.call("PUT", `/frontend/selected-nodes/${itemId}/extra-infos`, {
        token: shopper.token,
        body: {
          answers: [
            { extra_info_id: badge, value: values.badge },
            { extra_info_id: phone, value: values.phone },
          ],
        },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
  }
  const buy = async (sale: Sale, billing: Partial<typeof BUYER>, count = 1) => {
    const shopper = await readyBuyer(ctx, sale, { count, billing });
    if (sale === a) await answer(shopper, billing === BUYER ? ANSWERS : { badge: "Otto", phone: "+41 21 000 00 00" });
    return shopper;
  };
  const payOnline = async (shopper: Shopper) => {
    const checkout = await checkOut(ctx, shopper);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    await payOnDemoPage(ctx, checkout.body.payment_url);
  };
  const atPointOfSale = async (shopper: Shopper) => {
    const checkout = await checkOut(ctx, shopper, "point_of_sale", "fr");
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    return checkout.body.invoice.id as number;
  };

  // Unit A: paid (a ticket checked in), refunded, pending; another buyer paid.
  const paid = await buy(a, BUYER, 2);
  await payOnline(paid);
  const [line] = await ctx.database.db
    .select()
    .from(schema.selectedNodes)
    .where(eq(schema.selectedNodes.basketId, paid.basketId))
    .all();
  const code = createTicketCode(ticketKeysOf(ctx.config.ticketSigningKey), {
    eventId: a.event.id,
    basketId: paid.basketId,
    itemId: line?.id as number,
  });
  const scanned = await ctx.call("POST", `/events/${a.event.id}/check-ins`, { token: staffA, body: { code } });
  expect(scanned.status, JSON.stringify(scanned.body)).toBe(201);
  const refunded = await buy(a, BUYER);
  await markPaidByStaff(ctx, staffA, await atPointOfSale(refunded));
  const refund = await ctx.call("POST", `/baskets/${refunded.basketId}/refunds`, {
    token: staffA,
    body: { reason: "Zygmunt Quorrabelle cannot come" },
  });
  expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  const pending = await buy(a, BUYER);
  await atPointOfSale(pending);
  const other = await buy(a, OTHER);
  await markPaidByStaff(ctx, staffA, await atPointOfSale(other));

  // Unit B: a paid basket as a guest, then the rest sold out and the buyer in line, signed in with their email.
  const b = await createOnSaleEvent(ctx, { stock: 2, price: 3000 });
  const staffB = await loginAs(ctx, b.email, b.password);
  await ctx.database.transaction(function* (tx) {
    yield* setAccessMethods(tx, b.event.id, ["anonymous", "third_party", "trusted_email"]);
    yield* run(tx.insert(schema.waitingLists).values({ eventId: b.event.id, offerMinutes: 60 }).run());
  });
  const inB = await buy(b, BUYER);
  await payOnline(inB);
  const holder = await createBuyer(ctx, b.event.id, b.moduleId);
  await addToBasket(ctx, holder, b.article.node.id);
  const method = await ctx.database.db
    .select()
    .from(schema.eventAccessMethods)
    .where(eq(schema.eventAccessMethods.eventId, b.event.id))
    .all();
  const secret = method.find((row) => row.method === "third_party")?.secretKey as string;
  const token = await sign({ email: EMAIL, exp: Math.floor(Date.now() / 1000) + 600 }, secret, "HS256");
  const login = await ctx.call("POST", "/auth/third-party-login", { body: { active_module_id: b.moduleId, token } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const joined = await ctx.call("POST", "/frontend/waiting-list", {
    token: login.body.access_token,
    body: { event_id: b.event.id, node_id: b.article.node.id, quantity: 1 },
  });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  // A sign-in link asked by email too: its mail, and a rate-limit counter keyed by the address.
  const link = await ctx.call("POST", "/auth/trusted-email-login", {
    body: { active_module_id: b.moduleId, email: EMAIL },
  });
  expect(link.status, JSON.stringify(link.body)).toBeLessThan(300);

  // The mails so far are sent; then a confirmation is sent again (queued, like the waiting list's).
  const transport = recordingTransport();
  await deliverPendingMails(ctx.database, transport, ctx.config);
  expect(transport.sent.some((mail) => mail.to.toLowerCase() === EMAIL.toLowerCase())).toBe(true);
  const again = await ctx.call("POST", `/baskets/${paid.basketId}/confirmation-mail`, { token: staffA, body: {} });
  expect(again.status, JSON.stringify(again.body)).toBe(201);

  return {
    a,
    b,
    staffA,
    staffB,
    baskets: { paid: paid.basketId, refunded: refunded.basketId, pending: pending.basketId, inB: inB.basketId },
    other: other.basketId,
    entryId: joined.body.id as number,
  };
}
