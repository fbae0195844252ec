// An event's articles, communication settings and price preview, as the back office edits and checks them.
import { type Database, type Db, eq, run, schema } from "@ticketing/db";
import type {
  AddedArticle,
  Article,
  Communication,
  CommunicationUpdate,
  NewArticle,
  PricePreviewQuery,
  PricePreviewRow,
} from "@ticketing/shared/schemas/events";
import { assertEditable, getVisibleEvent, type User } from "./access.ts";
import { addArticle, type CatalogueNode, getCatalogue, listArticles, nodePrice } from "./catalogue.ts";
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
  assertEditable(event, user, supportEmail);
  return addArticle(database, event.id, article);
}

/** The communication settings of an event the caller may see. */
export async function getCommunication(db: Db, user: User, eventId: number): Promise<Communication> {
  const event = await getVisibleEvent(db, user, eventId);
  return communicationOf(db, event.id);
}

/**
 * Changes the communication settings. What buyers read is part of what moderation approved: locked with the
 * rest of the event once not a draft. Nothing to change (an untouched form) answers them as they are.
 */
export async function updateCommunication(
  database: Database,
  user: User,
  eventId: number,
  changes: CommunicationUpdate,
  supportEmail: string,
): Promise<Communication> {
  const event = await getVisibleEvent(database.db, user, eventId);
  if (Object.keys(changes).length === 0) return communicationOf(database.db, event.id);
  assertEditable(event, user, supportEmail);
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(schema.communicationSettings)
        .set(changes)
        .where(eq(schema.communicationSettings.eventId, event.id))
        .run(),
    );
  });
  return communicationOf(database.db, event.id);
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
