// An offer from the waiting list as its mail's link reaches it (issue 31, docs/decisions/0038): the code the mail
// carries alone authorises reading, opening and declining it, with no session. Opening makes the offer's basket in
// one transaction (the entry's held stock becomes its lines': no counter moves) and signs the buyer in as the entry's
// login, the mailed link having proved the email as a trusted email's does (a preview's offer: its testing login,
// which sells nothing real). A wrong code is a 404, as an unknown id.
import { and, type Database, type Db, eq, isNull, run, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import type { OpenedWaitingListOffer, WaitingListOffer } from "@ticketing/shared/schemas/waiting-list";
import { conflict, notFound } from "../../lib/errors.ts";
import { hmacHex, hmacMatches } from "../../lib/tokens.ts";
import type { Authenticated } from "../accounts/access.ts";
import { carriedClaims, issueTokens } from "../accounts/sessions.ts";
import { repriceBasket } from "../baskets/basket-content.ts";
import { newUnikey } from "../baskets/open-basket.ts";
import { getCatalogue, nodePrice } from "../catalogue/catalogue.ts";
import { findEvent } from "../events/event-pages.ts";
import { closeEntryStatements } from "./offers.ts";

type Entry = typeof schema.waitingListEntries.$inferSelect;

const signed = (entry: Pick<Entry, "id" | "offeredAt">) => `waiting-list-offer:${entry.id}:${entry.offeredAt}`;

/** The code an offer's mail carries: it names the entry and the moment of its offer (an entry is offered once). */
export const offerCode = (secret: string, entry: Pick<Entry, "id" | "offeredAt">) => hmacHex(secret, signed(entry));

/** The offered entry the code opens; 404 for an unknown id, an entry never offered and a wrong code alike. */
async function offerByCode(db: Db, secret: string, entryId: number, code: string): Promise<Entry> {
  const entry = await db
    .select()
    .from(schema.waitingListEntries)
    .where(eq(schema.waitingListEntries.id, entryId))
    .get();
  if (!entry || entry.offeredAt === null || !hmacMatches(secret, signed(entry), code)) throw notFound();
  return entry;
}

/** An offer not opened whose time is over has lapsed, whether or not the sweep has marked it yet. */
const hasLapsed = (entry: Entry, now: Date) =>
  entry.state === "expired" ||
  (entry.state === "offered" &&
    entry.basketId === null &&
    entry.offerExpiresAt !== null &&
    entry.offerExpiresAt < now.toISOString());

function presentOffer(entry: Entry, now: Date, title = entry.title): WaitingListOffer {
  return {
    id: entry.id,
    eventId: entry.eventId,
    title,
    quantity: entry.quantity,
    offeredQuantity: entry.offeredQuantity,
    state: hasLapsed(entry, now) ? "expired" : entry.state === "offering" ? "offered" : entry.state,
    offerExpiresAt: entry.offerExpiresAt,
    basketId: entry.basketId,
    email: entry.email,
  };
}

/** `GET /frontend/waiting-list/offers/:id?code=`: the offer as its mail's link shows it. */
export async function readOffer(
  db: Db,
  secret: string,
  input: { entryId: number; code: string; now: Date; language?: Language },
): Promise<WaitingListOffer> {
  const entry = await offerByCode(db, secret, input.entryId, input.code);
  // The entry keeps the English title; the French is its element's, while it exists (docs/decisions/0043).
  const french =
    input.language === "fr" && entry.nodeId !== null
      ? await db
          .select({ titleFr: schema.nodeConfigurations.titleFr })
          .from(schema.nodes)
          .innerJoin(schema.nodeConfigurations, eq(schema.nodeConfigurations.id, schema.nodes.configurationId))
          .where(eq(schema.nodes.id, entry.nodeId))
          .get()
      : undefined;
  return presentOffer(entry, input.now, inLanguage(entry.title, french?.titleFr, input.language ?? "en"));
}

/**
 * `POST /frontend/waiting-list/offers/:id/decline {code}`: the buyer gives the offer up, in one batch: the stock it
 * held comes back and goes to the next in line. 409 when it lapsed, or is no longer open (opened into a basket: its
 * lines are removed from the basket instead).
 */
export async function declineOffer(
  database: Database,
  secret: string,
  input: { entryId: number; code: string; now: Date; language?: Language },
): Promise<WaitingListOffer> {
  const entry = await offerByCode(database.db, secret, input.entryId, input.code);
  if (hasLapsed(entry, input.now)) throw conflict("errors.waiting_list_offer_lapsed");
  const [, closed] = await database.batch(closeEntryStatements(entry.id, "left", input.now.toISOString()));
  if (!closed?.length) throw conflict("errors.waiting_list_offer_not_open");
  return readOffer(database.db, secret, input);
}

/**
 * `POST /frontend/waiting-list/offers/:id/open {code}`: the offer's basket, made at the first opening in one
 * transaction (a `new` basket of the entry's login, holding until the offer's end, with `offered_quantity` lines of
 * the article, each linked to the entry's stocks), the same basket after; and the buyer signed in as the entry's
 * login. 409 when the offer lapsed, or was left, removed or never opened.
 */
export async function openOffer(
  { database, config }: { database: Database; config: { secretKey: string } },
  auth: Authenticated | null,
  input: { entryId: number; code: string; now: Date },
): Promise<OpenedWaitingListOffer> {
  const { now } = input;
  const entry = await offerByCode(database.db, config.secretKey, input.entryId, input.code);
  const event = await findEvent(database.db, entry.eventId);
  const login = await database.db
    .select()
    .from(schema.frontendLogins)
    .where(eq(schema.frontendLogins.id, entry.loginId))
    .get();
  if (!login) throw notFound();
  const catalogue = await getCatalogue(database.db, event.id);
  const node = entry.nodeId === null ? undefined : catalogue.byId.get(entry.nodeId);
  const nowIso = now.toISOString();
  type Opened =
    | { refused: string; basket?: undefined }
    | { refused?: undefined; basket: typeof schema.baskets.$inferSelect; isNew: boolean };
  const opened = await database.transaction(function* (tx): Generator<unknown, Opened, unknown> {
    const current = yield* run(
      tx.select().from(schema.waitingListEntries).where(eq(schema.waitingListEntries.id, entry.id)).get(),
    );
    if (!current) return { refused: "errors.waiting_list_offer_not_open" };
    if (current.basketId !== null && (current.state === "offered" || current.state === "bought")) {
      const basket = yield* run(tx.select().from(schema.baskets).where(eq(schema.baskets.id, current.basketId)).get());
      if (basket) return { basket, isNew: false };
    }
    if (hasLapsed(current, now)) return { refused: "errors.waiting_list_offer_lapsed" };
    if (current.state !== "offered" || current.basketId !== null || !node || current.offeredQuantity === null)
      return { refused: "errors.waiting_list_offer_not_open" };
    const basket = yield* run(
      tx
        .insert(schema.baskets)
        .values({
          eventId: current.eventId,
          createdById: current.loginId,
          testing: current.testing,
          language: current.language,
          unikey: newUnikey(),
          expiresAt: current.offerExpiresAt ?? nowIso,
          updatedAt: nowIso,
        })
        .returning()
        .get(),
    );
    const limits = yield* run(
      tx
        .select({ limitId: schema.waitingListEntryLimits.limitId })
        .from(schema.waitingListEntryLimits)
        .where(eq(schema.waitingListEntryLimits.entryId, current.id))
        .all(),
    );
    // Priced as an add prices it, for the buyer (a new basket has no codes); repriced below with the basket's.
    const price = nodePrice(catalogue, node, { email: login.email, promotionCodes: [] });
    for (let copy = 0; copy < current.offeredQuantity; copy++) {
      const line = yield* run(
        tx
          .insert(schema.selectedNodes)
          .values({
            basketId: basket.id,
            nodeId: node.id,
            configurationId: node.configurationId,
            title: node.configuration.title,
            titleFr: node.configuration.titleFr,
            isArticle: true,
            isSubjectToLausanneTax: node.configuration.isSubjectToLausanneTax,
            price,
          })
          .returning({ id: schema.selectedNodes.id })
          .get(),
      );
      for (const { limitId } of limits)
        yield* run(
          tx
            .insert(schema.selectedNodeLimits)
            .values({ selectedNodeId: line.id, limitId, isTesting: current.testing })
            .run(),
        );
    }
    // From here the lines hold the offer's stock (the entry no longer counts it: basket_id is set).
    yield* run(
      tx
        .update(schema.waitingListEntries)
        .set({ basketId: basket.id, updatedAt: nowIso })
        .where(
          and(
            eq(schema.waitingListEntries.id, current.id),
            eq(schema.waitingListEntries.state, "offered"),
            isNull(schema.waitingListEntries.basketId),
          ),
        )
        .run(),
    );
    return { basket, isNew: true };
  });
  if (opened.refused !== undefined) throw conflict(opened.refused);
  if (opened.isNew) await repriceBasket(database, { event, basket: opened.basket, login });
  const tokens = await issueTokens(database, config.secretKey, carriedClaims(auth, login.id), now);
  return { ...tokens, login, basketId: opened.basket.id };
}
