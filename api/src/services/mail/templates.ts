// What each kind of mail says (DESIGN.md 2, 7): rendered at delivery from the outbox row's payload.
import { type Database, eq, schema } from "@ticketing/db";
import type { Language, MailKind } from "@ticketing/shared/constants";
import en from "@ticketing/shared/i18n/en/email.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/email.json" with { type: "json" };
import { createTranslator, type Translate } from "@ticketing/shared/i18n/translate";
import { formatMoney } from "@ticketing/shared/money";
import {
  type CommunicationMail,
  type CommunicationUpdate,
  communicationField,
  fillPlaceholders,
} from "@ticketing/shared/schemas/events";
import { ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import { z } from "zod";
import type { Config } from "../../env.ts";
import { orderLinkUrl } from "../../lib/order-tokens.ts";
import { openPaymentOf } from "../baskets/payment-state.ts";
import { renderInvoiceAttachment } from "../invoices/invoice-views.ts";
import { loadRefund } from "../invoices/refund-views.ts";
import { ticketKeysOf } from "../tickets/ticket-codes.ts";
import {
  formatEventDates,
  loadOrder,
  type Order,
  pdfInputOf,
  renderTicketsPdf,
  sampleOrder,
  ticketDataOf,
  ticketsFileName,
} from "../tickets/tickets.ts";

const basketPayload = z.strictObject({ basket_id: z.number().int().positive() });
/** A test of an event's mail from the back office, rendered with a sample order and the event's saved texts. */
const samplePayload = z.strictObject({ event_id: z.number().int().positive(), is_test: z.literal(true) });
const orderPayload = z.union([basketPayload, samplePayload]);
const linkPayload = z.strictObject({ link: z.url() });

/** The payload each kind of mail carries in the outbox: ids and links, never the rendered text. */
export const MAIL_PAYLOADS = {
  order_confirmation: orderPayload,
  payment_reminder: orderPayload,
  trusted_email_login: z.strictObject({ link: z.url(), event_title: z.string().min(1) }),
  register_verify: linkPayload,
  register_existing: linkPayload,
  password_reset: linkPayload,
  payment_expired: basketPayload,
  /** A credit note: `invoice_id` is the refund's (negative) invoice of the basket. */
  refund: z.strictObject({ basket_id: z.number().int().positive(), invoice_id: z.number().int().positive() }),
} satisfies Record<MailKind, z.ZodType>;

export type MailPayloads = { [K in MailKind]: z.infer<(typeof MAIL_PAYLOADS)[K]> };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; content: Buffer; contentType: string }[];
  /** Who the buyer sees the mail from (a name before the platform's address) and whom they answer. */
  sender?: EventSender;
}

export interface EventSender {
  name: string | null;
  replyTo: string | null;
}

export interface MailTemplateContext {
  database: Database;
  config: Pick<Config, "publicUrl" | "secretKey" | "ticketSigningKey">;
  /** Stops a long rendering (the worker's time limit for one mail). */
  signal?: AbortSignal;
}

/**
 * Up to this many tickets travel in the confirmation mail, as one PDF of one page each (about 4 KB a page); an
 * order with more gets the link to its page, where they download as one PDF. pretix likewise stops attaching
 * tickets above a size: a mail of thousands of PDFs takes minutes to build and is refused by mail servers.
 */
export const MAX_ATTACHED_TICKETS = 50;
/** Lines of articles a mail lists; the rest are counted in one line, the order page shows them all. */
const MAX_SUMMARY_LINES = 50;

/** Renders an outbox row; throws when its payload is invalid or what it refers to is gone (the worker retries). */
export async function renderMail(
  context: MailTemplateContext,
  mail: { kind: MailKind; language: Language; payload: unknown },
): Promise<RenderedMail> {
  const t = createTranslator({ en, fr }, mail.language);
  switch (mail.kind) {
    case "order_confirmation":
    case "payment_reminder": {
      const payload = MAIL_PAYLOADS[mail.kind].parse(mail.payload);
      const order =
        "basket_id" in payload
          ? await loadOrder(context.database, payload.basket_id)
          : await sampleOrderOf(context.database, {
              eventId: payload.event_id,
              language: mail.language,
              isTesting: true,
            });
      if (!order) throw new Error(`basket ${"basket_id" in payload ? payload.basket_id : "?"} not found`);
      const rendered = await renderOrderMail(context, mail.language, order, mail.kind);
      return "basket_id" in payload ? rendered : asTestMail(t, rendered);
    }
    case "trusted_email_login": {
      const { link, event_title } = MAIL_PAYLOADS.trusted_email_login.parse(mail.payload);
      return linkMail(t, mail.language, "trusted_email_login", link, event_title);
    }
    case "register_verify":
      return linkMail(t, mail.language, "register_verify", MAIL_PAYLOADS.register_verify.parse(mail.payload).link);
    case "register_existing":
      return linkMail(t, mail.language, "register_existing", MAIL_PAYLOADS.register_existing.parse(mail.payload).link);
    case "password_reset":
      return linkMail(t, mail.language, "password_reset", MAIL_PAYLOADS.password_reset.parse(mail.payload).link);
    case "payment_expired":
      return renderPaymentExpiredMail(context, t, mail.language, MAIL_PAYLOADS.payment_expired.parse(mail.payload));
    case "refund":
      return renderRefundMail(context, t, mail.language, MAIL_PAYLOADS.refund.parse(mail.payload));
  }
}

/**
 * Money given back (a credit note): the articles refunded with their options, the amount in CHF and how it comes
 * back (the module that took the payment), and the way to the order. Whole or partial, as the basket then stood.
 */
async function renderRefundMail(
  { database, config }: MailTemplateContext,
  t: Translate,
  language: Language,
  payload: { basket_id: number; invoice_id: number },
): Promise<RenderedMail> {
  const order = await loadOrder(database, payload.basket_id);
  const refund = await loadRefund(database, payload.basket_id, payload.invoice_id);
  if (!order || !refund) throw new Error(`refund ${payload.invoice_id} of basket ${payload.basket_id} not found`);
  const values = { event: order.event.frontendTitle, reference: order.basket.unikey };
  const signature = signatureOf(t, language, order);
  const amount = formatMoney(refund.amount, language);
  const articles = refund.articles.map((article) => ({
    label: t("label_value", { label: article.title, value: formatMoney(article.amount, language) }),
    options: article.options.map((o) => `${o.title}${o.amount ? ` (${formatMoney(o.amount, language)})` : ""}`),
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

/** The buyer's unpaid online payment ran past the event's payment term: the order is cancelled, nothing charged. */
async function renderPaymentExpiredMail(
  { database, config }: MailTemplateContext,
  t: Translate,
  language: Language,
  { basket_id }: { basket_id: number },
): Promise<RenderedMail> {
  const order = await loadOrder(database, basket_id);
  if (!order) throw new Error(`basket ${basket_id} not found`);
  const values = {
    event: order.event.frontendTitle,
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
    buyerName: createTranslator({ en, fr }, sample.language)("sample_buyer"),
  });
}

/** A test mail says so in its subject and first line; its order is a sample (see `sampleOrder`). */
function asTestMail(t: Translate, mail: RenderedMail): RenderedMail {
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
  order: Order,
  kind: CommunicationMail,
): Promise<RenderedMail> {
  const t = createTranslator({ en, fr }, language);
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
  const customSubject =
    communication?.[
      communicationField(isConfirmation ? "orderConfirmationSubject" : "paymentReminderSubject", language)
    ];
  const customBody =
    communication?.[communicationField(isConfirmation ? "orderConfirmationBody" : "paymentReminderBody", language)];
  const subject = customSubject?.trim() ? fillPlaceholders(customSubject.trim(), values) : t(`${kind}.subject`, values);
  const opening = customBody?.trim()
    ? fillPlaceholders(customBody.trim(), values)
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
    const content = await renderTicketsPdf(ticketDataOf(order).map(pdfInputOf(keys, language)), { signal });
    attachments.push({ filename: ticketsFileName(order.basket.unikey), content, contentType: "application/pdf" });
  }
  return { subject, text, html, attachments, sender: senderOf(order) };
}

/** The organiser's signature of the event's mails in `language`, or ours. */
function signatureOf(t: Translate, language: Language, order: Pick<Order, "communication" | "event">): string {
  const own = order.communication?.[communicationField("signature", language)]?.trim();
  const event = order.event.frontendTitle;
  return own ? fillPlaceholders(own, { event }) : t("signature", { event });
}

function senderOf({ communication }: Pick<Order, "communication">): EventSender {
  return { name: communication?.senderName ?? null, replyTo: communication?.replyTo ?? null };
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

/** The short mails: a sentence, the link, a safety note. */
function linkMail(
  t: Translate,
  language: Language,
  kind: "trusted_email_login" | "register_verify" | "register_existing" | "password_reset",
  link: string,
  eventTitle?: string,
): RenderedMail {
  const values = { event: eventTitle ?? "" };
  const note = kind === "trusted_email_login" ? t(`${kind}.expiry`) : t(`${kind}.ignore`);
  const signature = eventTitle ? t("signature", values) : t("signature_platform");
  const subject = t(`${kind}.subject`, values);
  const body = t(`${kind}.body`, values);
  return {
    subject,
    text: [t("greeting_anonymous"), `${body}\n${link}`, note, signature].join("\n\n"),
    html: htmlPage(language, [
      paragraphs(t("greeting_anonymous")),
      `<p>${escapeHtml(body)}<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
      paragraphs(note),
      paragraphs(signature),
    ]),
    attachments: [],
  };
}

function greeting(t: Translate, name: string): string {
  return name ? t("greeting", { name }) : t("greeting_anonymous");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Plain text paragraphs (blank-line separated, single newlines kept) as HTML. */
function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** A mail about an order, its text and its HTML; a testing basket's starts with the notice that it is one. */
function orderMailBody(
  t: Translate,
  language: Language,
  order: Pick<Order, "basket">,
  text: (string | null)[],
  html: string[],
) {
  const notice = order.basket.testing ? t("testing_notice") : null;
  return {
    text: [notice, ...text].filter((paragraph) => paragraph !== null).join("\n\n"),
    html: htmlPage(language, [
      notice ? `<p style="color:#c0392b"><strong>${escapeHtml(notice)}</strong></p>` : "",
      ...html,
    ]),
  };
}

function htmlPage(language: Language, blocks: string[]): string {
  return `<!doctype html><html lang="${language}"><body style="font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a;max-width:600px">${blocks.join("")}</body></html>`;
}
