// What every mail is made of: the rendered mail, the greeting, the signature and sender of an event's mails,
// and the HTML page around the paragraphs.
import type { Database } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import en from "@ticketing/shared/i18n/en/email.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/email.json" with { type: "json" };
import { createTranslator, type Translate } from "@ticketing/shared/i18n/translate";
import { communicationText, fillPlaceholders } from "@ticketing/shared/schemas/events";
import type { Config } from "../../../env.ts";
import { eventTitleIn, type Order } from "../../tickets/tickets.ts";

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

/** The mails' texts (shared/i18n/<language>/email.json) in `language`. */
export const mailTranslator = (language: Language): Translate => createTranslator({ en, fr }, language);

/** The organiser's signature of the event's mails in `language` (else in the other language), or ours. */
export function signatureOf(t: Translate, language: Language, order: Pick<Order, "communication" | "event">): string {
  const own = communicationText(order.communication, "signature", language);
  const event = eventTitleIn(order.event, language);
  return own ? fillPlaceholders(own, { event }) : t("signature", { event });
}

export function senderOf({ communication }: Pick<Order, "communication">): EventSender {
  return { name: communication?.senderName ?? null, replyTo: communication?.replyTo ?? null };
}

export function greeting(t: Translate, name: string): string {
  return name ? t("greeting", { name }) : t("greeting_anonymous");
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Plain text paragraphs (blank-line separated, single newlines kept) as HTML. */
export function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** A mail about an order, its text and its HTML; a testing basket's starts with the notice that it is one. */
export function orderMailBody(
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

export function htmlPage(language: Language, blocks: string[]): string {
  return `<!doctype html><html lang="${language}"><body style="font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a;max-width:600px">${blocks.join("")}</body></html>`;
}
