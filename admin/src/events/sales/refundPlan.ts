// What the basket page shows of a basket's articles and payments, and what a refund will pay back
// (docs/specification.md §2.2 `{basketId}` basket detail with refund). The server decides the refund; these figures
// only announce it.
import type { PaymentModule } from "@ticketing/shared/constants";
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import type { BasketItem } from "@ticketing/shared/schemas/ticket-office";

/** How a refund pays back: through the module of the newest payment that was paid; `none` when nothing was. */
export function refundMethodOf(basket: Pick<BasketDetail, "paymentIntents">): PaymentModule | "none" {
  return basket.paymentIntents.find((intent) => intent.invoice.isResolved)?.moduleKey ?? "none";
}

/** What is left of the payment to pay back: what was paid less what refunds gave (or are giving) back. */
export const refundableAmount = (basket: Pick<BasketDetail, "paidAmount" | "refundedAmount">) =>
  Math.max(0, basket.paidAmount - basket.refundedAmount);

/** The articles a refund takes: every held one (`"all"`), or those chosen that are still held. */
export function chosenItems(items: BasketItem[], chosen: "all" | ReadonlySet<number>): BasketItem[] {
  return chosen === "all" ? items : items.filter((item) => chosen.has(item.id));
}

/** What the refund of those articles pays back: their prices with their options, as paid. */
export const refundAmountOf = (items: BasketItem[]) => items.reduce((sum, item) => sum + item.price, 0);

/** Whether staff may start a refund: a paid basket with articles still held. */
export const canRefund = (basket: Pick<BasketDetail, "status" | "items">) =>
  basket.status === "validated" && basket.items.length > 0;
