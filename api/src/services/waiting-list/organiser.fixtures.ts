// The organiser's waiting list in tests: an event whose buyers sign in by email, its organiser signed in, its list
// switched on over HTTP, and entries put in line as a join writes them (the entry, its stocks, its quantity counted as
// waiting), before the buyer's join route existed and to set up lines of any shape.
import { type Database, eq, run, schema, sql } from "@ticketing/db";
import { addToBasket, createBuyer, createOnSaleEvent, loginAs, type TestContext } from "../../test-support.ts";
import { releaseExpiredHolds } from "../baskets/baskets.ts";

export const SETTINGS = { accepting: true, automatic: true, offer_minutes: 60, partial_offers: false };

let people = 0;
/**
 * A buyer with a proved email in line for `quantity` of the stocks `limitIds`, as a join writes it: the entry, its
 * stocks, and its quantity counted as waiting on them, in one transaction.
 */
export async function putInLine(
  database: Database,
  eventId: number,
  limitIds: number[],
  options: { quantity?: number; testing?: boolean; nodeId?: number } = {},
) {
  const { quantity = 1, testing = false, nodeId = null } = options;
  people += 1;
  const email = `in-line-${people}-${Date.now()}@example.org`;
  return database.transaction(function* (tx) {
    const login = yield* run(
      tx
        .insert(schema.frontendLogins)
        .values({
          eventId,
          testing,
          method: "trusted_email",
          email,
          username: email,
          validatedAt: "2026-01-01T00:00:00Z",
        })
        .returning()
        .get(),
    );
    const entry = yield* run(
      tx
        .insert(schema.waitingListEntries)
        .values({ eventId, loginId: login.id, email, testing, title: "Entry", quantity, nodeId })
        .returning()
        .get(),
    );
    for (const limitId of limitIds) {
      yield* run(tx.insert(schema.waitingListEntryLimits).values({ entryId: entry.id, limitId }).run());
      yield* run(
        tx
          .update(schema.nodeLimits)
          .set(
            testing
              ? { testingWaiting: sql`${schema.nodeLimits.testingWaiting} + ${quantity}` }
              : { waiting: sql`${schema.nodeLimits.waiting} + ${quantity}` },
          )
          .where(eq(schema.nodeLimits.id, limitId))
          .run(),
      );
    }
    return entry;
  });
}

/** Ends the holds of these baskets a second ago, as time passing would (the sweep has not run yet). */
export const endHolds = (ctx: Pick<TestContext, "database">, basketIds: number[]) =>
  ctx.database.transaction(function* (tx) {
    for (const id of basketIds)
      yield* run(
        tx
          .update(schema.baskets)
          .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
          .where(eq(schema.baskets.id, id))
          .run(),
      );
  });

/** Ends the holds of these baskets a second ago and sweeps them, as time passing would. */
export async function expireHolds(ctx: TestContext, basketIds: number[]) {
  await endHolds(ctx, basketIds);
  await releaseExpiredHolds(ctx.database, new Date());
}

/**
 * A public event of `stock` whose buyers sign in by email (unless `emailAccess` is false), its organiser signed
 * in, and, with `holding`, a buyer holding that many of the article.
 */
export async function listedSale(
  ctx: TestContext,
  stock: number,
  options: { emailAccess?: boolean; holding?: number } = {},
) {
  const sale = await createOnSaleEvent(ctx, { stock });
  if (options.emailAccess !== false)
    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx.insert(schema.eventAccessMethods).values({ eventId: sale.event.id, method: "trusted_email" }).run(),
      );
    });
  const organiser = await loginAs(ctx, sale.email, sale.password);
  const base = `/events/${sale.event.id}/waiting-list`;
  const put = (settings: Record<string, unknown> = {}, token = organiser) =>
    ctx.call("PUT", base, { token, body: { ...SETTINGS, ...settings } });
  const holder = await createBuyer(ctx, sale.event.id, sale.moduleId);
  for (let i = 0; i < (options.holding ?? 0); i++) await addToBasket(ctx, holder, sale.article.node.id);
  const inLine = (opts: { quantity?: number; testing?: boolean } = {}) =>
    putInLine(ctx.database, sale.event.id, [sale.article.limit.id], opts);
  return { ...sale, organiser, base, put, holder, inLine };
}
