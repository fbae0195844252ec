// An event's articles, communication settings and price preview, as the back office edits and checks them;
// the previews and test mails of its communication.
import { type Database, type Db, eq, run, schema } from "@ticketing/db";
import { toSnake } from "@ticketing/shared/case";
import { LANGUAGES } from "@ticketing/shared/constants";
import {
  type AddedArticle,
  type Article,
  COMMUNICATION_PLACEHOLDERS,
  COMMUNICATION_TEXT_FIELDS,
  type Communication,
  type CommunicationPreview,
  type CommunicationText,
  type CommunicationUpdate,
  communicationField,
  type MailPreview,
  type NewArticle,
  type PricePreviewQuery,
  type PricePreviewRow,
  type TestMailRequest,
  type TestMailSent,
  unknownPlaceholders,
} from "@ticketing/shared/schemas/events";
import type { AppDeps } from "../../context.ts";
import { conflict, invalid, type Message } from "../../lib/errors.ts";
import { getVisibleEvent, type User } from "../accounts/access.ts";
import { addArticle, type CatalogueNode, getCatalogue, listArticles, nodePrice } from "../catalogue/catalogue.ts";
import { enqueueMail } from "../mail/queue.ts";
import { renderOrderMail, sampleOrderOf } from "../mail/templates/order-mails.ts";
import { renderTicketsPdf } from "../tickets/ticket-pdf.ts";
import { pdfInputOf, ticketDataOf } from "../tickets/tickets.ts";
import { startEventChange } from "./event-changes.ts";
import { communicationOf } from "./events.ts";

/** The articles of an event the caller may see, with their price and stock. */
export async function listEventArticles(db: Db, user: User, eventId: number): Promise<Article[]> {
  const event = await getVisibleEvent(db, user, eventId);
  return listArticles(db, event.id);
}

/** A new article in an event the caller may edit (a draft, unless superuser). */
export async function addEventArticle(
  database: Database,
  user: User,
  eventId: number,
  article: NewArticle,
  supportEmail: string,
): Promise<AddedArticle> {
  const event = await getVisibleEvent(database.db, user, eventId);
  const change = startEventChange(event, user, supportEmail);
  return addArticle(database, event.id, article, change.record);
}

/** The communication settings of an event the caller may see. */
export async function getCommunication(db: Db, user: User, eventId: number): Promise<Communication> {
  const event = await getVisibleEvent(db, user, eventId);
  return communicationOf(db, event.id);
}

/**
 * Changes the communication settings. What buyers read is part of what moderation approved (ADR 0031): locked with
 * the rest of the event once not a draft, but for the texts, which may still be fixed while it is public (they go
 * back to the moderators). Nothing changed (an untouched form, sent back whole) answers them as they are.
 */
export async function updateCommunication(
  database: Database,
  user: User,
  eventId: number,
  changes: CommunicationUpdate,
  supportEmail: string,
): Promise<Communication> {
  const event = await getVisibleEvent(database.db, user, eventId);
  const current = await communicationOf(database.db, event.id);
  const changed = (Object.keys(changes) as (keyof CommunicationUpdate)[]).filter(
    (field) => changes[field] !== current[field],
  );
  if (changed.length === 0) return current;
  const onlyTexts = changed.every((field) => COMMUNICATION_TEXT_FIELDS.includes(field));
  const change = startEventChange(event, user, supportEmail, onlyTexts ? "texts" : "event");
  assertKnownPlaceholders(changes);
  await database.transaction(function* (tx) {
    yield* change.record(tx);
    yield* run(
      tx
        .update(schema.communicationSettings)
        .set(Object.fromEntries(changed.map((field) => [field, changes[field]])))
        .where(eq(schema.communicationSettings.eventId, event.id))
        .run(),
    );
  });
  return communicationOf(database.db, event.id);
}

/**
 * A text's placeholder its reader would get as written (`{{nme}}`, or `{{total}}` in the PDF ticket, which has no
 * total): refused with the field's error, naming the placeholders it may use.
 */
function assertKnownPlaceholders(changes: CommunicationUpdate) {
  const fieldErrors: Record<string, Message> = {};
  for (const text of Object.keys(COMMUNICATION_PLACEHOLDERS) as CommunicationText[])
    for (const language of LANGUAGES) {
      const field = communicationField(text, language);
      const unknown = unknownPlaceholders(text, changes[field] ?? "");
      if (unknown.length)
        fieldErrors[toSnake(field)] = {
          key: "errors.communication_unknown_placeholder",
          values: {
            placeholders: unknown.join(", "),
            allowed: COMMUNICATION_PLACEHOLDERS[text].map((name) => `{{${name}}}`).join(", "),
          },
        };
    }
  const [first] = Object.values(fieldErrors);
  if (first) throw invalid(first, fieldErrors);
}

/**
 * A mail of the event as it would be sent, in the chosen language, from the form's unsaved values and a sample
 * order of the event (its first articles, a placeholder buyer).
 */
export async function previewCommunicationMail(
  { database, config }: Pick<AppDeps, "database" | "config">,
  user: User,
  eventId: number,
  { mail, language, changes }: CommunicationPreview,
): Promise<MailPreview> {
  const event = await getVisibleEvent(database.db, user, eventId);
  const order = await sampleOrderOf(database, { eventId: event.id, language, isTesting: false, changes });
  // The text the buyer reads; the tickets attached to the real mail are previewed on their own page.
  const { subject, text, html } = await renderOrderMail(
    { database, config },
    language,
    { ...order, communication: order.communication && { ...order.communication, isPdfTicketEnabled: false } },
    mail,
  );
  return { subject, text, html };
}

/**
 * The PDF ticket of the sample order's first article, from the form's unsaved values, in the chosen language.
 * It carries the testing band: a preview must never pass for a ticket (its code admits nobody either).
 */
export async function previewCommunicationTicket(
  { database, ticketKeys }: Pick<AppDeps, "database" | "ticketKeys">,
  user: User,
  eventId: number,
  { language, changes }: CommunicationPreview,
): Promise<Buffer> {
  const event = await getVisibleEvent(database.db, user, eventId);
  const order = await sampleOrderOf(database, { eventId: event.id, language, isTesting: true, changes });
  const [ticket] = ticketDataOf(order);
  if (!ticket) throw conflict("errors.communication_no_articles");
  return renderTicketsPdf([pdfInputOf(ticketKeys, language)(ticket)]);
}

/**
 * Queues the chosen mail, with the event's saved texts and a sample order, to the caller's own address, through
 * the outbox like every mail; it says it is a test.
 */
export async function sendTestMail(
  { database, onMailQueued }: Pick<AppDeps, "database" | "onMailQueued">,
  user: User,
  eventId: number,
  { mail, language }: TestMailRequest,
): Promise<TestMailSent> {
  const event = await getVisibleEvent(database.db, user, eventId);
  await database.transaction(function* (tx) {
    yield* enqueueMail(tx, { kind: mail, to: user.email, language, payload: { event_id: event.id, is_test: true } });
  });
  onMailQueued?.();
  return { to: user.email, mail };
}

/** The price of every article and option of an event the caller may see, for a visitor with this email and codes. */
export async function previewPrices(
  db: Db,
  user: User,
  eventId: number,
  query: PricePreviewQuery,
): Promise<PricePreviewRow[]> {
  const event = await getVisibleEvent(db, user, eventId);
  const visitor = {
    email: query.email || null,
    promotionCodes: (query.codes ?? "")
      .split(",")
      .map((code) => code.trim())
      .filter(Boolean),
  };
  const catalogue = await getCatalogue(db, event.id);
  const rows: PricePreviewRow[] = [];
  const walk = (node: CatalogueNode) => {
    const { category, title } = node.configuration;
    if (category === "article" || category === "option")
      rows.push({
        nodeId: node.id,
        parentId: node.parentId,
        category,
        title,
        price: nodePrice(catalogue, node, visitor),
      });
    node.children.forEach(walk);
  };
  walk(catalogue.root);
  return rows;
}
