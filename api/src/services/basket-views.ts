// How baskets are shown: one shape for the ticket office and the back office.
import { type Db, eq, inArray, schema } from "@ticketing/db";
import { activePromotionCodes, type Basket, basketItems } from "./baskets.ts";
import { paymentIntentsOf, paymentState } from "./payment-state.ts";

/** The list shape: totals and counts derived from the held rows, and the buyer. */
export async function presentBaskets(db: Db, baskets: Basket[]) {
  const lines = await basketItems(
    db,
    baskets.map((b) => b.id),
  );
  const billingIds = baskets.map((b) => b.billingInformationId).filter((id): id is number => id !== null);
  const billings = billingIds.length
    ? await db.select().from(schema.billingInformation).where(inArray(schema.billingInformation.id, billingIds)).all()
    : [];
  return baskets.map((basket) => {
    const content = lines.get(basket.id) ?? { items: [], total: 0 };
    return {
      ...basket,
      event: basket.eventId,
      total: content.total,
      registrationsCount: content.items.length,
      billingInformation: billings.find((b) => b.id === basket.billingInformationId) ?? null,
      items: content.items,
    };
  });
}

/** The detail shape: adds promotion codes and payment intents (with the link to continue an online payment). */
export async function presentBasketDetail(db: Db, basket: Basket) {
  const [summary] = await presentBaskets(db, [basket]);
  const intents = await paymentIntentsOf(db, [basket.id]);
  return {
    ...(summary as NonNullable<typeof summary>),
    promotionCodes: await activePromotionCodes(db, basket.id),
    paymentIntents: intents.map(({ intent, invoice }) => presentPaymentIntent(intent, invoice)),
    expiredItems: (await basketItems(db, [basket.id], "expired")).get(basket.id)?.items ?? [],
  };
}

export function presentPaymentIntent(
  intent: typeof schema.paymentIntents.$inferSelect,
  invoice: typeof schema.invoices.$inferSelect,
) {
  const isOngoing = paymentState(intent, invoice) === "open";
  return {
    ...intent,
    invoice,
    isOngoing,
    paymentUrl: isOngoing ? intent.hostedUrl : null,
  };
}

export const basketById = (db: Db, id: number) =>
  db.select().from(schema.baskets).where(eq(schema.baskets.id, id)).get();
