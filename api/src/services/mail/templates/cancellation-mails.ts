// The mail of a cancelled event (docs/decisions/0047-cancelling-an-event.md): the organiser's message in the buyer's
// language, and what is refunded — the credit note attached, and how the money comes back — or, for an order paid at
// a point of sale, the amount the organiser pays back by hand.
import { eq, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import type { Translate } from "@ticketing/shared/i18n/translate";
import { formatMoney } from "@ticketing/shared/money";
import { orderLinkUrl } from "../../../lib/order-tokens.ts";
import { publicCancellationOf } from "../../events/cancellation-views.ts";
import { renderInvoiceAttachment } from "../../invoices/invoice-views.ts";
import { loadRefund } from "../../invoices/refund-views.ts";
import { eventTitleIn, loadOrder } from "../../tickets/tickets.ts";
import {
  escapeHtml,
  greeting,
  type MailTemplateContext,
  orderMailBody,
  paragraphs,
  type RenderedMail,
  senderOf,
  signatureOf,
} from "./layout.ts";

export async function renderEventCancelledMail(
  { database, config }: MailTemplateContext,
  t: Translate,
  language: Language,
  payload: { basket_id: number; invoice_id?: number },
): Promise<RenderedMail> {
  const order = await loadOrder(database, payload.basket_id);
  if (!order) throw new Error(`basket ${payload.basket_id} not found`);
  const cancellation = await publicCancellationOf(database.db, order.event.id, language);
  if (!cancellation) throw new Error(`event ${order.event.id} is not cancelled`);
  const refund = payload.invoice_id ? await loadRefund(database, payload.basket_id, payload.invoice_id) : null;
  if (payload.invoice_id && !refund) throw new Error(`refund ${payload.invoice_id} not found`);
  const listed = refund
    ? null
    : await database.db
        .select({ amount: schema.eventCancellationBaskets.amount })
        .from(schema.eventCancellationBaskets)
        .where(eq(schema.eventCancellationBaskets.basketId, payload.basket_id))
        .get();
  const values = { event: eventTitleIn(order.event, language), reference: order.basket.unikey };
  const greetingLine = greeting(t, order.holderName);
  const intro = t(refund ? "event_cancelled.intro" : "event_cancelled.intro_by_hand", values);
  const messageLabel = t("event_cancelled.message");
  const total = refund
    ? t("label_value", { label: t("event_cancelled.amount"), value: formatMoney(refund.amount, language) })
    : t("label_value", {
        label: t("event_cancelled.amount_by_hand"),
        value: formatMoney(listed?.amount ?? 0, language),
      });
  const method = refund
    ? t(`refund.method.${refund.amount === 0 ? "none" : refund.method}`)
    : t("event_cancelled.by_hand");
  const ticketsVoid = t("event_cancelled.tickets_void");
  const link = { label: t("event_cancelled.view_order"), url: orderLinkUrl(config, order.event, order.basket) };
  const signature = signatureOf(t, language, order);
  const creditNote =
    refund && payload.invoice_id ? await renderInvoiceAttachment(database.db, payload.invoice_id, language) : null;
  return {
    subject: t("event_cancelled.subject", values),
    ...orderMailBody(
      t,
      language,
      order,
      [
        greetingLine,
        intro,
        `${messageLabel}\n${cancellation.message}`,
        total,
        method,
        ticketsVoid,
        t("label_value", { label: link.label, value: link.url }),
        signature,
      ],
      [
        paragraphs(greetingLine),
        paragraphs(intro),
        `<p>${escapeHtml(messageLabel)}</p><blockquote style="margin:0 0 1em 0;padding-left:12px;border-left:3px solid #999">${paragraphs(cancellation.message)}</blockquote>`,
        `<p><strong>${escapeHtml(total)}</strong></p>`,
        paragraphs(method),
        paragraphs(ticketsVoid),
        `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
        paragraphs(signature),
      ],
    ),
    sender: senderOf(order),
    attachments: creditNote
      ? [{ filename: creditNote.fileName, content: creditNote.pdf, contentType: "application/pdf" }]
      : [],
  };
}
