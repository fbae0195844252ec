// Tickets' data: an order (a basket's held articles with their options), one ticket per article, its signed
// code, and whether a scanned code admits. Drawing them is ticket-pdf.ts.
import { and, asc, type Database, eq, inArray, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import { communicationText, fillPlaceholders } from "@ticketing/shared/schemas/events";
import type { TicketVerification } from "@ticketing/shared/schemas/ticket-office";
import { invalid } from "../../lib/errors.ts";
import { listArticles } from "../catalogue/catalogue.ts";
import { createTicketCode, type TicketCodeClaims, type TicketKeys, verifyTicketCode } from "./ticket-codes.ts";

export interface TicketPdfInput {
  language: Language;
  eventTitle: string;
  /** ISO 8601 */
  eventStart: string;
  eventEnd: string;
  /** Place and address, one per line. */
  location: string;
  articleTitle: string;
  options: { title: string; price: number }[];
  /** cents: the article with its options */
  price: number;
  holderName: string;
  /** The basket's `unikey`. */
  basketReference: string;
  isTesting: boolean;
  ticketCode: string;
  /** The organiser's text for the ticket (`communication_settings.pdf_ticket_text_<language>`), filled in. */
  organiserText: string | null;
}

/**
 * What a ticket shows, before it is signed and rendered in a language: the organiser's texts in each (the event's
 * title, the article's and its options', the ticket's text), read in the ticket's language by `pdfInputOf`.
 */
export type TicketData = Omit<
  TicketPdfInput,
  "language" | "ticketCode" | "organiserText" | "eventTitle" | "articleTitle" | "options"
> & {
  claims: TicketCodeClaims;
  eventTitles: Record<Language, string>;
  articleTitles: Record<Language, string>;
  options: { titles: Record<Language, string>; price: number }[];
  organiserTexts: Record<Language, string | null>;
};

export interface OrderArticle {
  id: number;
  /** The article's title as added, in English, and its French (empty: none, the English is read). */
  title: string;
  titleFr: string;
  options: { id: number; title: string; titleFr: string; price: number }[];
  /** cents: the article with its options */
  linePrice: number;
}

export interface Order {
  basket: Pick<typeof schema.baskets.$inferSelect, "id" | "unikey" | "testing">;
  event: typeof schema.events.$inferSelect;
  communication: typeof schema.communicationSettings.$inferSelect | null;
  /** From the billing information, else the ticket-office login's email. */
  holderName: string;
  articles: OrderArticle[];
  /** cents */
  total: number;
}

/** The basket with its event and held articles (options = held selected nodes whose parent is the article). */
export async function loadOrder(database: Database, basketId: number): Promise<Order | null> {
  const { baskets, billingInformation, communicationSettings, events, frontendLogins, selectedNodes } = schema;
  const [row] = await database.db
    .select({
      basket: baskets,
      event: events,
      communication: communicationSettings,
      billing: billingInformation,
      loginEmail: frontendLogins.email,
    })
    .from(baskets)
    .innerJoin(events, eq(events.id, baskets.eventId))
    .leftJoin(communicationSettings, eq(communicationSettings.eventId, baskets.eventId))
    .leftJoin(billingInformation, eq(billingInformation.id, baskets.billingInformationId))
    .leftJoin(frontendLogins, eq(frontendLogins.id, baskets.createdById))
    .where(eq(baskets.id, basketId));
  if (!row) return null;

  const held = and(eq(selectedNodes.basketId, basketId), eq(selectedNodes.status, "held"));
  const articleRows = await database.db
    .select()
    .from(selectedNodes)
    .where(and(held, eq(selectedNodes.isArticle, true)))
    .orderBy(asc(selectedNodes.id));
  const optionRows = articleRows.length
    ? await database.db
        .select()
        .from(selectedNodes)
        .where(
          and(
            held,
            inArray(
              selectedNodes.parentId,
              articleRows.map((article) => article.id),
            ),
          ),
        )
        .orderBy(asc(selectedNodes.id))
    : [];

  const articles = articleRows.map((article): OrderArticle => {
    const options = optionRows
      .filter((option) => option.parentId === article.id)
      .map((option) => ({ id: option.id, title: option.title, titleFr: option.titleFr, price: option.price }));
    return {
      id: article.id,
      title: article.title,
      titleFr: article.titleFr,
      options,
      linePrice: options.reduce((sum, option) => sum + option.price, article.price),
    };
  });
  const billing = row.billing;
  return {
    basket: row.basket,
    event: row.event,
    communication: row.communication,
    // Erased at the buyer's request (docs/decisions/0046): no name.
    holderName: billing?.erasedAt
      ? ""
      : billing
        ? `${billing.firstName} ${billing.lastName}`.trim()
        : (row.loginEmail ?? ""),
    articles,
    total: articles.reduce((sum, article) => sum + article.linePrice, 0),
  };
}

/**
 * An order of the event for previews and test mails: its first articles (one of them twice, as orders often
 * are), a placeholder buyer and reference. It has no row: id 0, so no payment of it exists and no ticket code
 * signed for it admits anyone (`checkTicketCode` finds no basket). `communication` is what the texts say.
 */
export async function sampleOrder(
  database: Database,
  sample: { eventId: number; communication: Order["communication"]; isTesting: boolean; buyerName: string },
): Promise<Order> {
  const event = await database.db.select().from(schema.events).where(eq(schema.events.id, sample.eventId)).get();
  if (!event) throw new Error(`event ${sample.eventId} not found`);
  const [first, ...others] = (await listArticles(database.db, event.id)).slice(0, 3);
  const picked = first ? [first, first, ...others] : [];
  const configurationIds = picked.map((article) => article.configurationId).filter((id) => id !== null);
  const french = new Map(
    configurationIds.length
      ? (
          await database.db
            .select({ id: schema.nodeConfigurations.id, titleFr: schema.nodeConfigurations.titleFr })
            .from(schema.nodeConfigurations)
            .where(inArray(schema.nodeConfigurations.id, configurationIds))
        ).map((row) => [row.id, row.titleFr])
      : [],
  );
  const articles = picked.map((article, index) => ({
    id: index + 1,
    title: article.title,
    titleFr: (article.configurationId !== null && french.get(article.configurationId)) || "",
    options: [],
    linePrice: article.price,
  }));
  return {
    basket: { id: 0, unikey: "SAMPLE-0000", testing: sample.isTesting },
    event,
    communication: sample.communication,
    holderName: sample.buyerName,
    articles,
    total: articles.reduce((sum, article) => sum + article.linePrice, 0),
  };
}

/** The event's public title for a buyer of `language` (its French, else its English: docs/decisions/0043). */
export const eventTitleIn = (event: Pick<Order["event"], "frontendTitle" | "frontendTitleFr">, language: Language) =>
  inLanguage(event.frontendTitle, event.frontendTitleFr, language);

/**
 * `order` as a buyer of `language` reads it: the event's title and the articles' and options' titles in their
 * language (`title` holds it; the French fields are left as they were), so the mails read them as before.
 */
export function orderIn(order: Order, language: Language): Order {
  const titleIn = <T extends { title: string; titleFr: string }>(item: T): T => ({
    ...item,
    title: inLanguage(item.title, item.titleFr, language),
  });
  return {
    ...order,
    event: { ...order.event, frontendTitle: eventTitleIn(order.event, language) },
    articles: order.articles.map((article) => ({ ...titleIn(article), options: article.options.map(titleIn) })),
  };
}

const bothLanguages = (english: string, french: string) => ({
  en: inLanguage(english, french, "en"),
  fr: inLanguage(english, french, "fr"),
});

/** One ticket per article of the order, or only the article `itemId`. */
export function ticketDataOf(order: Order, itemId?: number): TicketData[] {
  const { basket, event } = order;
  const eventTitles = bothLanguages(event.frontendTitle, event.frontendTitleFr);
  const organiserText = (language: Language, article: string) => {
    // The organiser's text in the ticket's language, else in the other one (docs/decisions/0043).
    const text = communicationText(order.communication, "pdfTicketText", language);
    const values = { event: eventTitles[language], reference: basket.unikey, name: order.holderName, article };
    return text ? fillPlaceholders(text, values) : null;
  };
  return order.articles
    .filter((article) => itemId === undefined || article.id === itemId)
    .map((article) => {
      const articleTitles = bothLanguages(article.title, article.titleFr);
      return {
        claims: { eventId: event.id, basketId: basket.id, itemId: article.id },
        eventTitles,
        eventStart: event.startDate,
        eventEnd: event.endDate,
        location: [event.location, event.locationAddress].filter((line) => line.trim() !== "").join("\n"),
        articleTitles,
        options: article.options.map(({ title, titleFr, price }) => ({ titles: bothLanguages(title, titleFr), price })),
        price: article.linePrice,
        holderName: order.holderName,
        basketReference: basket.unikey,
        isTesting: basket.testing,
        organiserTexts: { en: organiserText("en", articleTitles.en), fr: organiserText("fr", articleTitles.fr) },
      };
    });
}

/**
 * What the PDF tickets of a basket need, one entry per held article (or only `itemId`); empty when the basket
 * or the article does not exist. The caller checks that the basket is validated and that the visitor may see it.
 */
export async function loadTicketData(database: Database, basketId: number, itemId?: number): Promise<TicketData[]> {
  const order = await loadOrder(database, basketId);
  return order ? ticketDataOf(order, itemId) : [];
}

/**
 * Whether a ticket's signed code is good for entry: genuine (else 400), its article still held in a validated
 * basket. The claims come from the code; the line's title, status and testing flag are null once it is gone.
 */
export async function checkTicketCode(
  database: Database,
  keys: Pick<TicketKeys, "publicKey">,
  code: string,
): Promise<TicketVerification> {
  const claims = verifyTicketCode(keys, code);
  if (!claims) throw invalid("errors.ticket_code_invalid");
  const row = await database.db
    .select({ item: schema.selectedNodes, basket: schema.baskets })
    .from(schema.selectedNodes)
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.selectedNodes.basketId))
    .where(and(eq(schema.selectedNodes.id, claims.itemId), eq(schema.baskets.id, claims.basketId)))
    .get();
  return {
    valid: row?.basket.status === "validated" && row.item.status === "held",
    ticket: {
      eventId: claims.eventId,
      basketId: claims.basketId,
      itemId: claims.itemId,
      title: row?.item.title ?? null,
      status: row?.basket.status ?? null,
      testing: row?.basket.testing ?? null,
    },
  };
}

/** The file name of an order's tickets as one PDF, in the confirmation mail and on download. */
export const ticketsFileName = (basketReference: string) => `tickets-${basketReference.replace(/[^\w-]/g, "")}.pdf`;

/** What a ticket's page needs: its data, in the buyer's language, with its claims signed into the QR code. */
export const pdfInputOf =
  (keys: TicketKeys, language: Language) =>
  ({ claims, organiserTexts, eventTitles, articleTitles, options, ...ticket }: TicketData): TicketPdfInput => ({
    ...ticket,
    eventTitle: eventTitles[language],
    articleTitle: articleTitles[language],
    options: options.map(({ titles, price }) => ({ title: titles[language], price })),
    language,
    organiserText: organiserTexts[language],
    ticketCode: createTicketCode(keys, claims),
  });
