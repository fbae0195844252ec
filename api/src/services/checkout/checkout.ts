// Checkout: a basket goes from `new` to `payment_in_progress` with its invoice and payment intent (docs/architecture.md).
import { randomBytes } from "node:crypto";
import { and, asc, type Database, type Db, eq, run, schema } from "@ticketing/db";
import type { Language, PaymentMethod, PaymentModule as PaymentModuleKey } from "@ticketing/shared/constants";
import { eventWindows } from "@ticketing/shared/ticket-office";
import { conflict, invalid } from "../../lib/errors.ts";
import { enqueueWebhook, orderSource, paidKey } from "../../lib/webhook-outbox.ts";
import type { Event } from "../accounts/access.ts";
import { type Basket, basketTotal } from "../baskets/baskets.ts";
import { writeInvoice } from "../invoices/invoice-writing.ts";
import { mailBasketBuyer } from "../mail/queue.ts";
import { billingInformationOf } from "./billing.ts";

const paymentDeadline = (event: Event, now: Date) =>
  new Date(now.getTime() + event.paymentTermMinutes * 60_000).toISOString();

export interface CheckoutInput {
  event: Event;
  basket: Basket;
  paymentMethod: PaymentMethod;
  /** The module chosen for the payment (services/payments `chooseModule`). */
  moduleKey: PaymentModuleKey;
  termsAccepted: boolean;
  language: Language;
  now: Date;
}

/** `new` → `payment_in_progress` with an invoice and a payment intent; a free basket is validated at once. */
export async function checkout(database: Database, input: CheckoutInput) {
  const { event, basket, now } = input;
  if (!input.termsAccepted) throw invalid("errors.terms_not_accepted", { terms_accepted: "errors.terms_not_accepted" });
  if (!basket.testing && !eventWindows(event, now).arePaymentsAllowed) throw conflict("errors.payments_not_allowed");
  if (input.paymentMethod === "point_of_sale" && !event.isPointOfSaleEnabled && !basket.testing)
    throw invalid("errors.point_of_sale_disabled", { payment_method: "errors.point_of_sale_disabled" });
  const billing = await billingInformationOf(database.db, basket);
  if (!billing) throw invalid("errors.billing_information_missing");
  const total = await basketTotal(database.db, basket.id);
  const hasItems = await database.db
    .select({ id: schema.selectedNodes.id })
    .from(schema.selectedNodes)
    .where(and(eq(schema.selectedNodes.basketId, basket.id), eq(schema.selectedNodes.status, "held")))
    .get();
  if (!hasItems) throw invalid("errors.basket_empty");
  const isFree = total === 0;
  const { moduleKey } = input;

  return database.transaction(function* (tx) {
    const moved = yield* run(
      tx
        .update(schema.baskets)
        .set({
          status: isFree ? "validated" : "payment_in_progress",
          language: input.language,
          // An online payment has the event's payment term to succeed; then it is cancelled (expireUnpaidPayments).
          ...(moduleKey === "point_of_sale" || isFree ? {} : { expiresAt: paymentDeadline(event, now) }),
          updatedAt: now.toISOString(),
        })
        .where(and(eq(schema.baskets.id, basket.id), eq(schema.baskets.status, "new")))
        .returning()
        .get(),
    );
    if (!moved) throw conflict("errors.basket_not_modifiable");
    const held = yield* run(
      tx
        .select({ id: schema.selectedNodes.id, title: schema.selectedNodes.title, price: schema.selectedNodes.price })
        .from(schema.selectedNodes)
        .where(and(eq(schema.selectedNodes.basketId, basket.id), eq(schema.selectedNodes.status, "held")))
        .orderBy(asc(schema.selectedNodes.id))
        .all(),
    );
    const invoice = yield* writeInvoice(tx, {
      basket,
      unitId: event.unitId,
      amount: total,
      dueDate: new Date(now.getTime() + 3 * 86_400_000).toISOString(),
      resolvedAt: isFree ? now.toISOString() : null,
      lines: held.map((line) => ({ selectedNodeId: line.id, title: line.title, amount: line.price })),
    });
    if (isFree) {
      yield* mailBasketBuyer(tx, basket.id, "order_confirmation", { basket_id: basket.id });
      yield* enqueueWebhook(tx, "order.paid", orderSource(basket.id, { dedupe: paidKey(basket.id) }), now);
      return { basket: moved, invoice, paymentIntent: null, billing };
    }
    const paymentIntent = yield* run(
      tx
        .insert(schema.paymentIntents)
        .values({
          invoiceId: invoice.id,
          createdById: basket.createdById,
          moduleKey,
          pspId: `${moduleKey}_${randomBytes(12).toString("hex")}`,
        })
        .returning()
        .get(),
    );
    // The buyer pays on site: the reminder mail carries the reference to quote there and the way back.
    if (moduleKey === "point_of_sale")
      yield* mailBasketBuyer(tx, moved.id, "payment_reminder", { basket_id: moved.id });
    return { basket: moved, invoice, paymentIntent, billing };
  });
}

export type PaymentIntent = typeof schema.paymentIntents.$inferSelect;
export type { Invoice } from "../invoices/invoice-writing.ts";

export async function invoicesOf(db: Db, basketId: number) {
  return db
    .select()
    .from(schema.invoices)
    .where(eq(schema.invoices.basketId, basketId))
    .orderBy(asc(schema.invoices.id))
    .all();
}
