// The order page an order link opens (`GET /frontend/orders/:token`): no login, the signed token is the key.
import { z } from "zod";
import { Id } from "./common.ts";
import { InvoiceRow } from "./invoices.ts";
import { BasketDetail } from "./ticket-office.ts";

/** The order, its event (to check the link belongs to the ticket office it is opened in) and its invoices. */
export const OrderView = z.object({
  basket: BasketDetail,
  event: z.object({ id: Id, frontendPath: z.string(), frontendTitle: z.string() }),
  invoices: z.array(InvoiceRow),
});
export type OrderView = z.infer<typeof OrderView>;
