// How baskets are shown: one shape for the ticket office and the back office. Every ticket-office page reads the
// visitor's baskets, so these reads are queries prepared once (prepared.ts), a fixed number per answer whatever
// the number of baskets or lines.
import { type Db, eq, prepared, schema, sql } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import { inList, jsonList } from "../../lib/id-lists.ts";
import { activePromotionCodes, type BasketContent, basketItemsIn } from "./basket-content.ts";
import { paymentIntentsOf, paymentState } from "./payment-state.ts";
import type { Basket } from "./rows.ts";

type BillingInformation = typeof schema.billingInformation.$inferSelect;

const billingsById = prepared((db) =>
  db.select().from(schema.billingInformation).where(inList(schema.billingInformation.id, "ids")).prepare(),
);

/** The billing information of the baskets that have one, by id. */
async function billingsOf(db: Db, baskets: Basket[]) {
  const ids = baskets.flatMap((b) => (b.billingInformationId === null ? [] : [b.billingInformationId]));
  const rows = ids.length ? await billingsById(db).all({ ids: jsonList(ids) }) : [];
  return new Map<number, BillingInformation>(rows.map((row) => [row.id, row]));
}

/** The list shape: totals and counts derived from the held lines, and the billing information. */
function summaryOf(basket: Basket, held: BasketContent | undefined, billings: Map<number, BillingInformation>) {
  const items = held?.items ?? [];
  return {
    ...basket,
    event: basket.eventId,
    total: held?.total ?? 0,
    registrationsCount: items.length,
    billingInformation:
      basket.billingInformationId === null ? null : (billings.get(basket.billingInformationId) ?? null),
    items,
  };
}

/** The list shape of each basket: two queries, their lines (titled in `language`) and their billing information. */
export async function presentBaskets(db: Db, baskets: Basket[], language: Language = "en") {
  const ids = baskets.map((b) => b.id);
  const held = (await basketItemsIn(db, ids, ["held"], language)).get("held");
  const billings = await billingsOf(db, baskets);
  return baskets.map((basket) => summaryOf(basket, held?.get(basket.id), billings));
}

/**
 * The detail shape: adds promotion codes and payment intents (with the link to continue an online payment), and
 * the articles whose reservation ran out (read with the held ones); titles in `language`.
 */
export async function presentBasketDetail(db: Db, basket: Basket, language: Language = "en") {
  const lines = await basketItemsIn(db, [basket.id], ["held", "expired"], language);
  const billings = await billingsOf(db, [basket]);
  const intents = await paymentIntentsOf(db, [basket.id]);
  const renewals = await holdRenewalsOf(db).get({ event: basket.eventId, basket: basket.id });
  return {
    ...summaryOf(basket, lines.get("held")?.get(basket.id), billings),
    promotionCodes: await activePromotionCodes(db, basket.id),
    paymentIntents: intents.map(({ intent, invoice }) => presentPaymentIntent(intent, invoice)),
    expiredItems: lines.get("expired")?.get(basket.id)?.items ?? [],
    // A waiting list's offer lasts the time its organiser set: hold-again refuses it (docs/decisions/0038).
    holdRenewalsLeft: renewals?.isOffer ? 0 : Math.max(0, (renewals?.max ?? 0) - basket.holdRenewals),
  };
}

export function presentPaymentIntent(
  intent: typeof schema.paymentIntents.$inferSelect,
  invoice: typeof schema.invoices.$inferSelect,
) {
  const state = paymentState(intent, invoice);
  const isOngoing = state === "open";
  return {
    ...intent,
    invoice,
    state,
    isOngoing,
    paymentUrl: isOngoing ? intent.hostedUrl : null,
  };
}

/** The event's renewal bound, and whether the basket is a waiting list's offer (whose hold is never renewed). */
const holdRenewalsOf = prepared((db) =>
  db
    .select({
      max: schema.events.maxHoldRenewals,
      isOffer:
        sql<boolean>`exists (select 1 from ${schema.waitingListEntries} where ${schema.waitingListEntries.basketId} = ${sql.placeholder("basket")} and ${schema.waitingListEntries.state} = 'offered')`.mapWith(
          Boolean,
        ),
    })
    .from(schema.events)
    .where(eq(schema.events.id, sql.placeholder("event")))
    .prepare(),
);

const basketWithId = prepared((db) =>
  db
    .select()
    .from(schema.baskets)
    .where(eq(schema.baskets.id, sql.placeholder("id")))
    .prepare(),
);

export const basketById = (db: Db, id: number) => basketWithId(db).get({ id });
