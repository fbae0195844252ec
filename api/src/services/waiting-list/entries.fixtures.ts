// What the buyer-side tests of the waiting list share: an event whose one article is sold out, its list switched on,
// buyers with a proved email (a third party's signed token), and their calls.
import { and, asc, eq, run, schema } from "@ticketing/db";
import { sign } from "hono/jwt";
import { expect } from "vitest";
import { createBuyer, createOnSaleEvent, type TestContext } from "../../test-support.ts";
import { setAccessMethods } from "../buyers/logins.ts";

export const OFFER_MINUTES = 60;

/** The event's list, automatic and taking names unless told. */
export const openList = (
  ctx: TestContext,
  eventId: number,
  settings: { accepting?: boolean; automatic?: boolean; partialOffers?: boolean } = {},
) =>
  ctx.database.transaction(function* (tx) {
    yield* run(
      tx
        .insert(schema.waitingLists)
        .values({
          eventId,
          offerMinutes: OFFER_MINUTES,
          accepting: settings.accepting ?? true,
          automatic: settings.automatic ?? true,
          partialOffers: settings.partialOffers ?? false,
        })
        .run(),
    );
  });

/**
 * An event with one article of `stock`, all of it held by a guest (`holder`, whose line is `heldLineIds`), its list
 * on, and sign-in by email (a third party's) as well as guests.
 */
export async function soldOutSale(ctx: TestContext, stock = 2, list: Parameters<typeof openList>[2] = {}) {
  const sale = await createOnSaleEvent(ctx, { stock });
  await ctx.database.transaction(function* (tx) {
    yield* setAccessMethods(tx, sale.event.id, ["anonymous", "third_party"]);
  });
  const holder = await createBuyer(ctx, sale.event.id, sale.moduleId);
  const heldLineIds: number[] = [];
  for (let i = 0; i < stock; i++) {
    const added = await ctx.call("POST", "/frontend/selected-nodes", {
      token: holder.token,
      body: { basket_id: holder.basketId, node_id: sale.article.node.id },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    heldLineIds.push(added.body.id);
  }
  await openList(ctx, sale.event.id, list);
  return { ...sale, holder, heldLineIds };
}

export type SoldOutSale = Awaited<ReturnType<typeof soldOutSale>>;

let people = 0;
/** A buyer signed in with a proved email (a third party's signed token), in `language`. */
export async function provedBuyer(ctx: TestContext, sale: SoldOutSale, name = "buyer") {
  people += 1;
  const email = `${name}${people}@example.org`;
  const method = await ctx.database.db
    .select()
    .from(schema.eventAccessMethods)
    .where(
      and(eq(schema.eventAccessMethods.eventId, sale.event.id), eq(schema.eventAccessMethods.method, "third_party")),
    )
    .get();
  const token = await sign({ email, exp: Math.floor(Date.now() / 1000) + 600 }, method?.secretKey as string, "HS256");
  const login = await ctx.call("POST", "/auth/third-party-login", {
    body: { active_module_id: sale.moduleId, token },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { email, token: login.body.access_token as string, loginId: login.body.login.id as number };
}

/** The buyer joins the list for `quantity` of the sale's article. */
export const join = (
  ctx: TestContext,
  sale: SoldOutSale,
  buyer: { token: string },
  quantity = 1,
  headers: Record<string, string> = {},
) =>
  ctx.call("POST", "/frontend/waiting-list", {
    token: buyer.token,
    body: { event_id: sale.event.id, node_id: sale.article.node.id, quantity },
    headers,
  });

/** The guest holding the stock gives one of its articles back (a removal frees one unit, in one batch). */
export async function freeOne(ctx: TestContext, sale: SoldOutSale) {
  const lineId = sale.heldLineIds.shift();
  const removed = await ctx.call("DELETE", `/frontend/selected-nodes/${lineId}`, { token: sale.holder.token });
  expect(removed.status, JSON.stringify(removed.body)).toBe(200);
}

export const entryRow = (ctx: TestContext, id: number) =>
  ctx.database.db.select().from(schema.waitingListEntries).where(eq(schema.waitingListEntries.id, id)).get();

export const limitRow = (ctx: TestContext, sale: SoldOutSale) =>
  ctx.database.db.select().from(schema.nodeLimits).where(eq(schema.nodeLimits.id, sale.article.limit.id)).get();

/** The mails of a kind queued about an entry, oldest first. */
export const mailsAbout = async (ctx: TestContext, kind: "waiting_list_joined" | "waiting_list_offer", id: number) =>
  (
    await ctx.database.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.kind, kind))
      .orderBy(asc(schema.mailOutbox.id))
      .all()
  ).filter((mail) => (mail.payload as { entry_id: number }).entry_id === id);
