// The event as the ticket office shows it (`/frontend/events/:id/…`): the visitor's tree, where to pay at a
// point of sale, what the confirmation page says.
import { type Db, eq, prepared, schema, sql } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import { inLanguage, readIn } from "@ticketing/shared/content-language";
import { communicationText, fillPlaceholders } from "@ticketing/shared/schemas/events";
import type { VisitorTreeQuery } from "@ticketing/shared/schemas/frontend";
import type { ConfirmationPage, PointOfSale } from "@ticketing/shared/schemas/ticket-office";
import { notFound } from "../../lib/errors.ts";
import type { Event } from "../accounts/access.ts";
import { visitorOf } from "../baskets/basket-content.ts";
import { findLogin, findOwnedBasket } from "../baskets/baskets.ts";
import { getCatalogue, readStockCounters } from "../catalogue/catalogue.ts";
import { writeVisitorTree } from "../catalogue/visitor-tree.ts";
import { communicationOf } from "./events.ts";

/** The event, whatever its status; otherwise 404. */
const eventById = prepared((db) =>
  db
    .select()
    .from(schema.events)
    .where(eq(schema.events.id, sql.placeholder("id")))
    .prepare(),
);

export async function findEvent(db: Db, eventId: number): Promise<Event> {
  const event = await eventById(db).get({ id: eventId });
  if (!event) throw notFound("errors.event_not_found");
  return event;
}

/**
 * What the visitor may see of a public or closed event's tree, priced for them (their login's email and the
 * codes of the basket they name), as the JSON of a `Tree`. The testing tree is only for a caller with a testing
 * login to the event.
 */
export async function showVisitorTree(
  db: Db,
  input: { eventId: number; loginIds: number[]; query: VisitorTreeQuery; now: Date; language?: Language },
): Promise<string> {
  const { loginIds, query } = input;
  const event = await findEvent(db, input.eventId);
  const testing = query.testing ?? false;
  if (!testing && event.status !== "public" && event.status !== "closed") throw notFound("errors.event_not_found");
  const login = loginIds.length ? await findLogin(db, loginIds, event.id, testing).catch(() => null) : null;
  if (testing && !login) throw notFound("errors.event_not_found");
  const basket = query.basketId ? await findOwnedBasket(db, loginIds, query.basketId) : null;
  const visitor = login ? await visitorOf(db, login, basket) : { email: null, promotionCodes: [] };
  const catalogue = await getCatalogue(db, event.id);
  const counters = await readStockCounters(db, event.id);
  return writeVisitorTree(catalogue, counters, visitor, testing, input.now, input.language);
}

/** Where the event's baskets can be paid in person, each text in the caller's language (docs/decisions/0043). */
export async function listPointsOfSale(db: Db, eventId: number, language: Language = "en"): Promise<PointOfSale[]> {
  const event = await findEvent(db, eventId);
  const rows = await db
    .select({
      id: schema.pointsOfSale.id,
      title: schema.pointsOfSale.title,
      titleFr: schema.pointsOfSale.titleFr,
      description: schema.pointsOfSale.description,
      descriptionFr: schema.pointsOfSale.descriptionFr,
      location: schema.pointsOfSale.location,
      locationFr: schema.pointsOfSale.locationFr,
    })
    .from(schema.pointsOfSale)
    .where(eq(schema.pointsOfSale.eventId, event.id))
    .all();
  return rows.map((row) => readIn(row, ["title", "description", "location"], language));
}

/**
 * What the confirmation page shows after an order: the organiser's text in the buyer's language (its `{{event}}`
 * filled), or a page of theirs to go to.
 */
export async function showConfirmationPage(db: Db, eventId: number, language: Language): Promise<ConfirmationPage> {
  const event = await findEvent(db, eventId);
  const settings = await communicationOf(db, event.id);
  // Written in one language only, the organiser's text is shown in that one rather than none (docs/decisions/0043).
  const text = communicationText(settings, "confirmationPageText", language);
  return {
    text: text
      ? fillPlaceholders(text, { event: inLanguage(event.frontendTitle, event.frontendTitleFr, language) })
      : null,
    // Rows written before addresses were checked may hold anything: only an https address is ever followed.
    redirectUrl: settings.confirmationRedirectUrl?.startsWith("https://") ? settings.confirmationRedirectUrl : null,
  };
}
