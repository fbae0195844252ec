// The refund mail: money given back, with the credit note attached.
import type { Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import type { Translate } from "@ticketing/shared/i18n/translate";
import { formatMoney } from "@ticketing/shared/money";
import { orderLinkUrl } from "../../../lib/order-tokens.ts";
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

/**
 * Money given back (a credit note): the articles refunded with their options, the amount in CHF and how it comes
 * back (the module that took the payment), and the way to the order. Whole or partial, as the basket then stood.
 */
export async function renderRefundMail(
  { database, config }: MailTemplateContext,
  t: Translate,
  language: Language,
  payload: { basket_id: number; invoice_id: number },
): Promise<RenderedMail> {
  const order = await loadOrder(database, payload.basket_id);
  const refund = await loadRefund(database, payload.basket_id, payload.invoice_id);
  if (!order || !refund) throw new Error(`refund ${payload.invoice_id} of basket ${payload.basket_id} not found`);
  const values = { event: eventTitleIn(order.event, language), reference: order.basket.unikey };
  const signature = signatureOf(t, language, order);
  const amount = formatMoney(refund.amount, language);
  const articles = refund.articles.map((article) => ({
    label: t("label_value", {
      label: inLanguage(article.title, article.titleFr, language),
      value: formatMoney(article.amount, language),
    }),
    options: article.options.map(
      (o) => `${inLanguage(o.title, o.titleFr, language)}${o.amount ? ` (${formatMoney(o.amount, language)})` : ""}`,
    ),
  }));
  const intro = t(
    refund.isLate ? "refund.intro_late" : refund.isWhole ? "refund.intro_full" : "refund.intro_partial",
    values,
  );
  // A late payment's articles never had tickets; a refund's tickets no longer admit.
  const ticketsVoid = articles.length && !refund.isLate ? t("refund.tickets_void") : null;
  const creditNote = await renderInvoiceAttachment(database.db, payload.invoice_id, language);
  const method = t(`refund.method.${refund.amount === 0 ? "none" : refund.method}`);
  const link = {
    label: t("refund.view_order"),
    url: orderLinkUrl(config, order.event, order.basket),
  };
  const greetingLine = greeting(t, order.holderName);
  const total = t("label_value", { label: t("refund.amount"), value: amount });
  const listed = articles.length
    ? [t("refund.articles"), ...articles.flatMap((a) => [`- ${a.label}`, ...a.options.map((o) => `    ${o}`)])].join(
        "\n",
      )
    : null;
  return {
    subject: t("refund.subject", values),
    ...orderMailBody(
      t,
      language,
      order,
      [
        greetingLine,
        intro,
        listed,
        total,
        method,
        ticketsVoid,
        t("label_value", { label: link.label, value: link.url }),
        signature,
      ],
      [
        paragraphs(greetingLine),
        paragraphs(intro),
        articles.length
          ? `<h2 style="font-size:16px">${escapeHtml(t("refund.articles"))}</h2><ul>${articles
              .map(
                (a) =>
                  `<li>${escapeHtml(a.label)}${a.options.map((o) => `<br><small>${escapeHtml(o)}</small>`).join("")}</li>`,
              )
              .join("")}</ul>`
          : "",
        `<p><strong>${escapeHtml(total)}</strong></p>`,
        paragraphs(method),
        ticketsVoid ? paragraphs(ticketsVoid) : "",
        `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
        paragraphs(signature),
      ],
    ),
    sender: senderOf(order),
    // The credit note, as the buyer would download it from the order.
    attachments: creditNote
      ? [{ filename: creditNote.fileName, content: creditNote.pdf, contentType: "application/pdf" }]
      : [],
  };
}
