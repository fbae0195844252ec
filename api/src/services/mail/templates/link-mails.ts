// The short mails about an account or a login: a sentence, the link, a safety note.
import type { Language } from "@ticketing/shared/constants";
import type { Translate } from "@ticketing/shared/i18n/translate";
import { escapeHtml, htmlPage, paragraphs, type RenderedMail } from "./layout.ts";

/** The short mails: a sentence, the link, a safety note. */
export function linkMail(
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
