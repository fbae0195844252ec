// Back-office sales: the baskets of the events a user may see, and the point of sale's "mark paid"
// (DESIGN.md 4 "Payments").
import { z } from "zod";
import { BASKET_STATUSES } from "../constants.ts";
import { Id } from "./common.ts";

/**
 * The back office sees a basket as the ticket office does (one presenter, services/basket-views.ts): `Basket` in
 * the list, `BasketDetail` with its promotion codes and payments on its page.
 */
export { Basket, BasketDetail } from "./ticket-office.ts";

/** What marking an invoice paid did: `changed` is false when it was already paid. */
export const InvoicePaid = z.object({
  invoiceId: Id,
  changed: z.boolean(),
  basketStatus: z.enum(BASKET_STATUSES),
});
export type InvoicePaid = z.infer<typeof InvoicePaid>;
