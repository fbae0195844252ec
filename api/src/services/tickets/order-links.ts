// The order link of the confirmation mail (`/tickets/<path>/orders/<token>`, lib/order-tokens.ts): it opens the
// order, its tickets and invoices on any device, without a ticket-office login.
import { asc, type Database, type Db, eq, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import type { OrderView } from "@ticketing/shared/schemas/orders";
import { notFound } from "../../lib/errors.ts";
import { basketIdOfOrderToken } from "../../lib/order-tokens.ts";
import { basketById, presentBasketDetail } from "../baskets/basket-views.ts";
import type { Basket } from "../baskets/baskets.ts";
import { findEvent } from "../events/event-pages.ts";
import { presentInvoiceRows, renderInvoiceAttachment } from "../invoices/invoice-views.ts";
import type { TicketKeys } from "./ticket-codes.ts";
import { renderBasketTicket, streamTicketsOf } from "./ticket-downloads.ts";
import { eventTitleIn } from "./tickets.ts";

type Deps = { database: Database; config: { secretKey: string }; ticketKeys: TicketKeys };

/** The basket the token names; 404 for a tampered, expired or unknown one. */
async function basketOfToken(db: Db, secret: string, token: string, now: Date): Promise<Basket> {
  const basketId = basketIdOfOrderToken(secret, token, now);
  const basket = basketId === null ? undefined : await basketById(db, basketId);
  if (!basket) throw notFound();
  return basket;
}

/**
 * The order as its page shows it, in the reader's `language`: the basket (its articles' and options' titles as
 * added, in that language), its event and its invoices and credit notes.
 */
export async function showOrder(
  { database, config }: Deps,
  token: string,
  now: Date,
  language: Language,
): Promise<OrderView> {
  const { db } = database;
  const basket = await basketOfToken(db, config.secretKey, token, now);
  const event = await findEvent(db, basket.eventId);
  // Its lines' titles in the reader's language, as the ticket office's basket shows them.
  const detail = await presentBasketDetail(db, basket, language);
  const invoices = await db
    .select()
    .from(schema.invoices)
    .where(eq(schema.invoices.basketId, basket.id))
    .orderBy(asc(schema.invoices.id))
    .all();
  return {
    basket: detail,
    event: { id: event.id, frontendPath: event.frontendPath, frontendTitle: eventTitleIn(event, language) },
    invoices: await presentInvoiceRows(db, invoices),
  };
}

type Download = { token: string; language: Language; now: Date };

/** One article's ticket of the order, once it is validated. */
export async function renderOrderTicket(deps: Deps, input: Download & { itemId: number }) {
  const basket = await basketOfToken(deps.database.db, deps.config.secretKey, input.token, input.now);
  return renderBasketTicket(deps, basket, input.itemId, input.language);
}

/** The order's tickets in one PDF, once it is validated. */
export async function streamOrderTickets(deps: Deps, input: Download) {
  const basket = await basketOfToken(deps.database.db, deps.config.secretKey, input.token, input.now);
  return streamTicketsOf(deps, basket, input.language);
}

/** An invoice or credit note of the order (404 for one of another basket), in the language it was ordered in. */
export async function renderOrderInvoice(
  deps: Deps,
  input: { token: string; invoiceId: number; language?: Language; now: Date },
) {
  const { db } = deps.database;
  const basket = await basketOfToken(db, deps.config.secretKey, input.token, input.now);
  const invoice = await db.select().from(schema.invoices).where(eq(schema.invoices.id, input.invoiceId)).get();
  if (invoice?.basketId !== basket.id) throw notFound();
  const rendered = await renderInvoiceAttachment(db, invoice.id, input.language ?? basket.language);
  if (!rendered) throw notFound();
  return rendered;
}
