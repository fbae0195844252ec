// docs/specification.md §2.2 `/events/:id/communication`: five pages, each its own form of the communication settings
// it owns.
import {
  COMMUNICATION_PLACEHOLDERS,
  type CommunicationMail,
  type CommunicationText,
} from "@ticketing/shared/schemas/events";

export const COMMUNICATION_PAGES = [
  "general",
  "order-confirmation",
  "payment-reminder",
  "order-confirmation-page",
  "pdf-ticket",
] as const;
export type CommunicationPage = (typeof COMMUNICATION_PAGES)[number];

/** The i18n key of a page's name. */
export const communicationPageLabel = (page: CommunicationPage) => `admin.communication.pages.${page}`;

/** The mail a page's preview and test show: the page's own, or the confirmation (which carries the signature). */
export const MAIL_OF_PAGE: Partial<Record<CommunicationPage, CommunicationMail>> = {
  general: "order_confirmation",
  "order-confirmation": "order_confirmation",
  "payment-reminder": "payment_reminder",
};

/** What a page shows beside its form: a mail, the PDF ticket, or nothing (the confirmation page). */
export type PreviewOf = CommunicationMail | "pdf_ticket";
export const previewOfPage = (page: CommunicationPage): PreviewOf | undefined =>
  MAIL_OF_PAGE[page] ?? (page === "pdf-ticket" ? "pdf_ticket" : undefined);

/** `{{name}}, {{event}}, …`: what a text may use, as its input's help. */
export const placeholdersOf = (text: CommunicationText) =>
  COMMUNICATION_PLACEHOLDERS[text].map((name) => `{{${name}}}`).join(", ");
