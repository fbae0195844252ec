import type { InvoiceRow } from "@ticketing/shared/schemas/invoices";
import type { ConfirmationPage } from "@ticketing/shared/schemas/ticket-office";
import { ongoingPaymentIntent } from "#app/lib/basket-rules.ts";
import { loadCompletedBasket, loadOpenBasket } from "#app/lib/baskets.server.ts";
import { downloadableInvoices } from "#app/lib/invoices.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const api = await office.requireLoginApi();
  const basket = await loadCompletedBasket(office, api);
  if (basket) {
    // The organiser's own words, or their page to go on to (communication settings).
    const page = await api.get<ConfirmationPage>(`/frontend/events/${office.event.id}/confirmation-page`);
    // The paid invoice, and a credit note for each refund.
    const invoices = downloadableInvoices(await api.get<InvoiceRow[]>("/frontend/invoices", { basketId: basket.id }));
    return office.data({ basket, isWaitingForPayment: false, page, invoices });
  }
  // Paid but not confirmed yet: say so instead of sending the visitor away.
  const open = await loadOpenBasket(office, api);
  if (open.basket && ongoingPaymentIntent(open.basket))
    return office.data({ basket: null, isWaitingForPayment: true, page: null, invoices: [] });
  throw await office.redirect(office.href("buy"));
}
