// The mails about an order: its confirmation (with the tickets, or a link to them), the payment reminder, the
// notice that an unpaid payment expired, and a test of the confirmation or reminder from the back office.
import { type Database, eq, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import type { Translate } from "@ticketing/shared/i18n/translate";
import { formatMoney } from "@ticketing/shared/money";
import {
  type CommunicationMail,
  type CommunicationUpdate,
  communicationText,
  fillPlaceholders,
} from "@ticketing/shared/schemas/events";
import { ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import { orderLinkUrl } from "../../../lib/order-tokens.ts";
import { openPaymentOf } from "../../baskets/payment-state.ts";
import { formatEventDates } from "../../tickets/event-dates.ts";
import { ticketKeysOf } from "../../tickets/ticket-codes.ts";
import { renderTicketsPdf } from "../../tickets/ticket-pdf.ts";
import {
  eventTitleIn,
  loadOrder,
  type Order,
  orderIn,
  pdfInputOf,
  sampleOrder,
  ticketDataOf,
  ticketsFileName,
} from "../../tickets/tickets.ts";
import {
  escapeHtml,
  greeting,
  type MailTemplateContext,
  mailTranslator,
  orderMailBody,
  paragraphs,
  type RenderedMail,
  senderOf,
  signatureOf,
} from "./layout.ts";

/**
 * Up to this many tickets travel in the confirmation mail, as one PDF of one page each (about 4 KB a page); an
 * order with more gets the link to its page, where they download as one PDF. pretix likewise stops attaching
 * tickets above a size: a mail of thousands of PDFs takes minutes to build and is refused by mail servers.
 */
export const MAX_ATTACHED_TICKETS = 50;
/** Lines of articles a mail lists; the rest are counted in one line, the order page shows them all. */
const MAX_SUMMARY_LINES = 50;

/** The buyer's unpaid online payment ran past the event's payment term: the order is cancelled, nothing charged. */
export async function renderPaymentExpiredMail(
  { database, config }: MailTemplateContext,
  t: Translate,
  language: Language,
  { basket_id }: { basket_id: number },
): Promise<RenderedMail> {
  const order = await loadOrder(database, basket_id);
  if (!order) throw new Error(`basket ${basket_id} not found`);
  const values = {
    event: eventTitleIn(order.event, language),
    reference: order.basket.unikey,
    minutes: String(order.event.paymentTermMinutes),
  };
  const link = `${ticketOfficeUrl(config.publicUrl, order.event, order.basket.testing)}/`;
  const body = t("payment_expired.body", values);
  const again = t("payment_expired.again");
  const greetingLine = greeting(t, order.holderName);
  const signature = signatureOf(t, language, order);
  return {
    subject: t("payment_expired.subject", values),
    ...orderMailBody(
      t,
      language,
      order,
      [greetingLine, body, t("label_value", { label: again, value: link }), signature],
      [
        paragraphs(greetingLine),
        paragraphs(body),
        `<p><a href="${escapeHtml(link)}">${escapeHtml(again)}</a></p>`,
        paragraphs(signature),
      ],
    ),
    sender: senderOf(order),
    attachments: [],
  };
}

/**
 * Where the reminder leads, in the ticket office (preview mode for a testing basket): an order waiting at a point
 * of sale to the page with its reference and the places to pay; otherwise (a failed payment) to the payment step.
 */
async function reminderLink(database: Database, publicUrl: string, t: Translate, order: Order) {
  const open = await openPaymentOf(database.db, order.basket.id);
  const atPointOfSale = open?.moduleKey === "point_of_sale";
  return {
    label: t(atPointOfSale ? "payment_reminder.point_of_sale" : "payment_reminder.pay"),
    url: ticketOfficeUrl(
      publicUrl,
      order.event,
      order.basket.testing,
      atPointOfSale ? `payment/pointofsale/${open.id}` : "checkout/payment-method",
    ),
  };
}

/**
 * The sample order a test mail or a preview is about: the event's saved texts under the form's unsaved `changes`
 * (none for a test mail), and a placeholder buyer in `language`.
 */
export async function sampleOrderOf(
  database: Database,
  sample: { eventId: number; language: Language; isTesting: boolean; changes?: CommunicationUpdate },
): Promise<Order> {
  const saved = await database.db
    .select()
    .from(schema.communicationSettings)
    .where(eq(schema.communicationSettings.eventId, sample.eventId))
    .get();
  return sampleOrder(database, {
    eventId: sample.eventId,
    communication: saved ? { ...saved, ...sample.changes } : null,
    isTesting: sample.isTesting,
    buyerName: mailTranslator(sample.language)("sample_buyer"),
  });
}

/** A test mail says so in its subject and first line; its order is a sample (see `sampleOrder`). */
export function asTestMail(t: Translate, mail: RenderedMail): RenderedMail {
  const notice = t("test_mail.notice");
  return {
    ...mail,
    subject: t("test_mail.subject", { subject: mail.subject }),
    text: `${notice}\n\n${mail.text}`,
    html: mail.html.replace(/(<body[^>]*>)/, `$1<p style="color:#c0392b"><strong>${escapeHtml(notice)}</strong></p>`),
  };
}

/**
 * The order confirmation or payment reminder of `order`, in `language`: the organiser's subject and opening in
 * that language (communication settings) or ours, the articles, the link, the signature. Also the back office's
 * preview (`previewCommunicationMail`), from a sample order.
 */
export async function renderOrderMail(
  { database, config, signal }: MailTemplateContext,
  language: Language,
  ordered: Order,
  kind: CommunicationMail,
): Promise<RenderedMail> {
  const t = mailTranslator(language);
  // The event's and the articles' titles in the buyer's language, here and on the tickets attached.
  const order = orderIn(ordered, language);
  const { communication, event } = order;
  const values = {
    event: event.frontendTitle,
    reference: order.basket.unikey,
    name: order.holderName,
    total: formatMoney(order.total, language),
    event_date: formatEventDates(event.startDate, event.endDate, language),
  };
  const isConfirmation = kind === "order_confirmation";
  // The organiser's own subject and body (communication settings) replace ours; they may use the same placeholders.
  // Written in one language only, they are sent in that one rather than ours (docs/decisions/0043).
  const customSubject = communicationText(
    communication,
    isConfirmation ? "orderConfirmationSubject" : "paymentReminderSubject",
    language,
  );
  const customBody = communicationText(
    communication,
    isConfirmation ? "orderConfirmationBody" : "paymentReminderBody",
    language,
  );
  const subject = customSubject ? fillPlaceholders(customSubject, values) : t(`${kind}.subject`, values);
  const opening = customBody
    ? fillPlaceholders(customBody, values)
    : `${greeting(t, order.holderName)}\n\n${t(`${kind}.intro`, values)}`;
  const signature = signatureOf(t, language, order);
  const money = (cents: number) => (cents ? formatMoney(cents, language) : t("order_confirmation.free"));
  const isPdfTicketEnabled = isConfirmation && (communication?.isPdfTicketEnabled ?? true) && order.articles.length > 0;
  const areTicketsAttached = isPdfTicketEnabled && order.articles.length <= MAX_ATTACHED_TICKETS;
  const ticketsNote = !isPdfTicketEnabled
    ? null
    : areTicketsAttached
      ? t("order_confirmation.tickets_attached")
      : t("order_confirmation.tickets_linked", {
          count: formatCount(order.articles.length, language),
        });
  const link = isConfirmation
    ? {
        label: t(
          isPdfTicketEnabled && !areTicketsAttached ? "order_confirmation.download" : "order_confirmation.view_order",
        ),
        // Signed and tied to the basket, not to a browser's login: it opens the order on any device.
        url: orderLinkUrl(config, order.event, order.basket),
      }
    : await reminderLink(database, config.publicUrl, t, order);

  const allLines = summaryLines(order);
  const lines = allLines.slice(0, MAX_SUMMARY_LINES);
  const unlisted = allLines.slice(MAX_SUMMARY_LINES).reduce((sum, line) => sum + line.count, 0);
  const more = unlisted ? t("order_confirmation.more_articles", { count: formatCount(unlisted, language) }) : null;
  const lineLabel = (line: SummaryLine) =>
    line.count > 1 ? `${formatCount(line.count, language)} × ${line.article.title}` : line.article.title;
  const articleLines = lines.flatMap((line) => [
    `- ${t("label_value", { label: lineLabel(line), value: money(line.count * line.article.linePrice) })}`,
    ...line.article.options.map(
      (option) => `    ${option.title}${option.price ? ` (${formatMoney(option.price, language)})` : ""}`,
    ),
  ]);
  const textParagraphs = [
    opening,
    [
      t("order_confirmation.articles"),
      ...articleLines,
      ...(more ? [more] : []),
      t("label_value", { label: t("order_confirmation.total"), value: money(order.total) }),
    ].join("\n"),
    ticketsNote,
    t("label_value", { label: link.label, value: link.url }),
    signature,
  ];

  const articleRows = lines
    .map((line) => {
      const { article } = line;
      const options = article.options
        .map(
          (option) =>
            `<br><small>${escapeHtml(option.title)}${option.price ? ` (${escapeHtml(formatMoney(option.price, language))})` : ""}</small>`,
        )
        .join("");
      return `<tr><td style="padding:4px 12px 4px 0">${escapeHtml(lineLabel(line))}${options}</td><td style="padding:4px 0;text-align:right;vertical-align:top;white-space:nowrap">${escapeHtml(money(line.count * article.linePrice))}</td></tr>`;
    })
    .join("");
  const moreRow = more ? `<tr><td colspan="2" style="padding:4px 0">${escapeHtml(more)}</td></tr>` : "";
  const { text, html } = orderMailBody(t, language, order, textParagraphs, [
    paragraphs(opening),
    `<h2 style="font-size:16px">${escapeHtml(t("order_confirmation.articles"))}</h2>`,
    `<table style="border-collapse:collapse">${articleRows}${moreRow}<tr><th style="padding:8px 12px 4px 0;text-align:left;border-top:1px solid #ccc">${escapeHtml(t("order_confirmation.total"))}</th><th style="padding:8px 0 4px;text-align:right;border-top:1px solid #ccc">${escapeHtml(money(order.total))}</th></tr></table>`,
    ticketsNote ? paragraphs(ticketsNote) : "",
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    paragraphs(signature),
  ]);

  const attachments: RenderedMail["attachments"] = [];
  if (areTicketsAttached) {
    const keys = ticketKeysOf(config.ticketSigningKey);
    const content = await renderTicketsPdf(ticketDataOf(ordered).map(pdfInputOf(keys, language)), { signal });
    attachments.push({ filename: ticketsFileName(order.basket.unikey), content, contentType: "application/pdf" });
  }
  return { subject, text, html, attachments, sender: senderOf(order) };
}

/** Counts written like the amounts beside them (Swiss grouping). */
const formatCount = (count: number, language: Language) => count.toLocaleString(language === "fr" ? "fr-CH" : "en-CH");

interface SummaryLine {
  article: Order["articles"][number];
  count: number;
}

/** The order's articles with identical ones (title, options, price) counted on one line: "3 × Day pass". */
function summaryLines(order: Order): SummaryLine[] {
  const lines = new Map<string, SummaryLine>();
  for (const article of order.articles) {
    const key = JSON.stringify([article.title, article.linePrice, article.options.map((o) => [o.title, o.price])]);
    const line = lines.get(key);
    if (line) line.count += 1;
    else lines.set(key, { article, count: 1 });
  }
  return [...lines.values()];
}
