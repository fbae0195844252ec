// The buyer's PDF tickets (DESIGN.md 4 "Tickets"): one article's, or the whole order's in one document, once the
// order is validated, for the caller's own basket only.
import type { Readable } from "node:stream";
import type { Database } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import { conflict, notFound } from "../lib/errors.ts";
import { findBuyerBasket } from "./buyer-baskets.ts";
import type { TicketKeys } from "./ticket-codes.ts";
import { loadTicketData, pdfInputOf, renderTicketPdf, streamBasketTickets, ticketsFileName } from "./tickets.ts";

type Deps = { database: Database; ticketKeys: TicketKeys };
type Download = { loginIds: number[]; basketId: number; language: Language };

/** The caller's validated basket; 409 while it is not paid. */
async function paidBasket(database: Database, input: Download) {
  const { basket } = await findBuyerBasket(database.db, input.loginIds, input.basketId);
  if (basket.status !== "validated") throw conflict("errors.ticket_not_available");
  return basket;
}

/** One article's ticket, as a PDF. */
export async function renderBuyerTicket({ database, ticketKeys }: Deps, input: Download & { itemId: number }) {
  const basket = await paidBasket(database, input);
  const [ticket] = await loadTicketData(database, basket.id, input.itemId);
  if (!ticket) throw notFound();
  return renderTicketPdf(pdfInputOf(ticketKeys, input.language)(ticket));
}

/** The order's tickets in one PDF, a page each, streamed as it is drawn, with the file's name. */
export async function streamBuyerTickets(
  { database, ticketKeys }: Deps,
  input: Download,
): Promise<{ pdf: Readable; fileName: string }> {
  const basket = await paidBasket(database, input);
  const pdf = await streamBasketTickets(database, ticketKeys, basket.id, input.language);
  if (!pdf) throw notFound();
  return { pdf, fileName: ticketsFileName(basket.unikey) };
}
