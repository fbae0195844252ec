// What staff do from a basket's page (docs/design.md §3 "back-office sales"): send its order confirmation again, and
// download its tickets. Only for a basket of an event the user may see (404 otherwise).
import type { Readable } from "node:stream";
import { type Database, type Db, eq, run, schema } from "@ticketing/db";
import { type BasketStatus, type Language, SOLD_BASKET_STATUSES } from "@ticketing/shared/constants";
import type { BasketMail } from "@ticketing/shared/schemas/sales";
import { conflict, notFound } from "../../lib/errors.ts";
import { getVisibleEvent, type User } from "../accounts/access.ts";
import { mailBasketBuyer } from "../mail/queue.ts";
import type { TicketKeys } from "../tickets/ticket-codes.ts";
import { streamBasketTickets } from "../tickets/ticket-pdf.ts";
import { ticketsFileName } from "../tickets/tickets.ts";
import { basketById } from "./basket-views.ts";

/** A paid order: validated, or validated and reopened to edit its answers. Its held articles are its tickets. */
const isSold = (status: BasketStatus) => (SOLD_BASKET_STATUSES as readonly BasketStatus[]).includes(status);

async function visibleBasket(db: Db, user: User, basketId: number) {
  const basket = await basketById(db, basketId);
  if (!basket) throw notFound();
  await getVisibleEvent(db, user, basket.eventId);
  return basket;
}

/**
 * Queues the order confirmation again, to the basket's billing address in the buyer's language, and answers the
 * queued mail. 409 when the order is not paid (nothing to confirm) or has no billing information to write to.
 */
export async function resendConfirmation(
  { database, onMailQueued }: { database: Database; onMailQueued?: () => void },
  user: User,
  basketId: number,
): Promise<BasketMail> {
  const basket = await visibleBasket(database.db, user, basketId);
  const mail = await database.transaction(function* (tx) {
    // Read again inside the transaction: a refund may have closed the order meanwhile.
    const current = yield* run(
      tx.select({ status: schema.baskets.status }).from(schema.baskets).where(eq(schema.baskets.id, basket.id)).get(),
    );
    if (!current || !isSold(current.status)) throw conflict("basket_actions.confirmation_not_paid");
    const queued = yield* mailBasketBuyer(tx, basket.id, "order_confirmation", { basket_id: basket.id });
    if (!queued) throw conflict("basket_actions.confirmation_no_billing");
    return queued;
  });
  onMailQueued?.();
  const { id, kind, to, status, subject, createdAt, sentAt } = mail;
  return { id, kind, to, status, subject, createdAt, sentAt };
}

/**
 * The basket's valid tickets (its articles still held in a paid order) as one PDF, a page each, streamed as it is
 * drawn, in `language` or else the buyer's, with the file's name. 409 when it has none: not paid, or all refunded.
 */
export async function streamStaffTickets(
  { database, ticketKeys }: { database: Database; ticketKeys: TicketKeys },
  user: User,
  basketId: number,
  language: Language | undefined,
): Promise<{ pdf: Readable; fileName: string }> {
  const basket = await visibleBasket(database.db, user, basketId);
  if (!isSold(basket.status)) throw conflict("basket_actions.no_valid_ticket");
  const pdf = await streamBasketTickets(database, ticketKeys, basket.id, language ?? basket.language);
  if (!pdf) throw conflict("basket_actions.no_valid_ticket");
  return { pdf, fileName: ticketsFileName(basket.unikey) };
}
