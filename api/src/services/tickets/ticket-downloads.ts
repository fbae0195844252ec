// The buyer's PDF tickets (docs/design.md §4 "Tickets"): one article's, or the whole order's in one document, once the
// order is validated, for the caller's own basket only (or the basket an order link names, order-links.ts).
import type { Readable } from "node:stream";
import type { Database } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import { conflict, notFound } from "../../lib/errors.ts";
import { type Basket, findOwnedBasket } from "../baskets/baskets.ts";
import type { TicketKeys } from "./ticket-codes.ts";
import { renderTicketPdf, streamBasketTickets } from "./ticket-pdf.ts";
import { loadTicketData, pdfInputOf, ticketsFileName } from "./tickets.ts";

type Deps = { database: Database; ticketKeys: TicketKeys };
type Download = { loginIds: number[]; basketId: number; language: Language };

/** The basket, once validated; 409 while it is not paid. */
function paid(basket: Basket) {
  if (basket.status !== "validated") throw conflict("errors.ticket_not_available");
  return basket;
}

/** The caller's basket; 404 for anyone else's. */
const ownBasket = (database: Database, input: Download) => findOwnedBasket(database.db, input.loginIds, input.basketId);

/** One article's ticket of a validated basket, as a PDF. */
export async function renderBasketTicket(
  { database, ticketKeys }: Deps,
  basket: Basket,
  itemId: number,
  language: Language,
) {
  const [ticket] = await loadTicketData(database, paid(basket).id, itemId);
  if (!ticket) throw notFound();
  return renderTicketPdf(pdfInputOf(ticketKeys, language)(ticket));
}

/** A validated basket's tickets in one PDF, a page each, streamed as it is drawn, with the file's name. */
export async function streamTicketsOf(
  { database, ticketKeys }: Deps,
  basket: Basket,
  language: Language,
): Promise<{ pdf: Readable; fileName: string }> {
  const pdf = await streamBasketTickets(database, ticketKeys, paid(basket).id, language);
  if (!pdf) throw notFound();
  return { pdf, fileName: ticketsFileName(basket.unikey) };
}

/** One article's ticket, as a PDF. */
export async function renderBuyerTicket(deps: Deps, input: Download & { itemId: number }) {
  return renderBasketTicket(deps, await ownBasket(deps.database, input), input.itemId, input.language);
}

/** The order's tickets in one PDF, a page each, streamed as it is drawn, with the file's name. */
export async function streamBuyerTickets(deps: Deps, input: Download): Promise<{ pdf: Readable; fileName: string }> {
  return streamTicketsOf(deps, await ownBasket(deps.database, input), input.language);
}
