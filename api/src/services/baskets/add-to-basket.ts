// The add-to-basket path, top to bottom (README.md): the caller's basket (opened when they name only the event),
// what they chose checked and priced against the catalogue (catalogue/article-choice.ts), the basket's held lines,
// then the write as one guarded batch (docs/decisions/0020, 0026). What it needs from other files it calls as leaves.
import { and, type Database, eq, prepared, rowOf, schema, sql } from "@ticketing/db";
import { type Language, OPEN_BASKET_STATUSES } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import { GROUP_ERROR_MESSAGES, selectionErrors } from "@ticketing/shared/groups";
import type { SelectedNodeAdd } from "@ticketing/shared/schemas/frontend";
import type { SelectedNode } from "@ticketing/shared/schemas/ticket-office";
import { conflict, invalid, notFound } from "../../lib/errors.ts";
import { inList } from "../../lib/id-lists.ts";
import type { Event } from "../accounts/access.ts";
import { chooseArticle } from "../catalogue/article-choice.ts";
import { type CatalogueNode, getCatalogue } from "../catalogue/catalogue.ts";
import { assertAdmitted, noteHeld } from "../waiting-room/admission.ts";
import { addStatements, type WrittenLine } from "./add-statements.ts";
import { visitorOf } from "./basket-content.ts";
import { assertWithinCaps, capCondition, capFigures, capsOf } from "./buyer-caps.ts";
import { assertBasketActionsAllowed, expireIfDue, holdUntil } from "./holds.ts";
import { createBasket } from "./open-basket.ts";
import type { Basket, FrontendLogin } from "./rows.ts";

/**
 * `POST /frontend/selected-nodes`: puts an article (with its chosen options) in the caller's basket, `quantity`
 * times, and answers the first line with its basket. The basket is the one named (`basketId`: 404 for anyone
 * else's), or, given the event instead (`eventId`, `testing`), the caller's newest open basket on it, opened when
 * there is none (as `POST /frontend/baskets` does). Either way the caller's newest login to the event in the
 * basket's mode is the visitor.
 */
export async function addBasketItem(
  database: Database,
  input: { loginIds: number[]; body: SelectedNodeAdd; now: Date; language?: Language },
): Promise<SelectedNode> {
  const { body } = input;
  const loginIds = JSON.stringify(input.loginIds);
  const found =
    body.basketId !== undefined
      ? await namedBasket(database.db).get({ basketId: body.basketId, loginIds })
      : await eventsOpenBasket(database.db).get({ eventId: body.eventId, testing: Number(body.testing), loginIds });
  // In the order a basket named is checked everywhere (findBuyerBasket): the basket, its event, the caller's login.
  if (body.basketId !== undefined && !found?.basket) throw notFound();
  if (!found?.event) throw notFound("errors.event_not_found");
  const { event, login } = found;
  if (!login) throw notFound();
  // The waiting room's turn (docs/decisions/0037), read only on an event whose room is on: the read above says so.
  const place =
    found.roomOn && !login.testing ? await assertAdmitted(database, { event, login, now: input.now }) : null;
  const basket = found.basket ?? (await createBasket(database, event, login, input.now));
  const item = await addSelectedNode(database, {
    event,
    basket,
    login,
    promotionCodes: found.basket ? (JSON.parse(found.codes) as string[]) : [],
    // Read with the basket: a basket opened just now is read afresh by the add.
    held: found.basket ? heldFromJson(found.basket.heldVersion, found.held) : undefined,
    catalogueVersion: found.catalogueVersion,
    nodeId: body.nodeId,
    optionNodeIds: body.optionNodeIds,
    quantity: body.quantity,
    now: input.now,
    language: input.language,
  });
  await noteHeld(database, place, input.now);
  return { ...item, basketId: basket.id };
}

/** The caller's newest login (`loginIds`) to the basket's or event's event, in its testing mode. */
const newestLogin = (eventId: unknown, testing: unknown) =>
  sql`(select max(l.id) from frontend_logins l where l.id in (select value from json_each(${sql.placeholder("loginIds")}))
    and l.event_id = ${eventId} and l.testing = ${testing})`;

/** Whether the event's waiting room is on (one that is not ended): its turn is then checked. */
const roomOn = (eventId: unknown) =>
  sql<number>`exists (select 1 from waiting_rooms w where w.event_id = ${eventId} and w.status <> 'ended')`;

/** The basket's promotion codes (values, a JSON array), in the order they were applied. */
const codesOf = sql<string>`(select json_group_array(value) from (select c.value from selected_promotion_codes s
  join promotion_codes c on c.id = s.promotion_code_id where s.basket_id = ${schema.baskets.id} order by s.id))`;

/**
 * The basket's held lines as one JSON value `[node ids, articles held]`: what the basket's ranges and item maximum
 * count. Read from the basket's index alone (selected_nodes_basket), with the basket's `held_version` (the add's guard).
 */
const heldOf = (basketId: unknown) =>
  sql<string>`(select json_array(json_group_array(node_id), total(is_article)) from selected_nodes
    where basket_id = ${basketId} and status = 'held')`;

/** The event's catalogue version (catalogue.ts), read with the basket instead of on its own. */
const catalogueVersionOf = (eventId: unknown) =>
  sql<number | null>`(select version from catalogue_versions where event_id = ${eventId})`;

/**
 * The basket named if it is the caller's, with its event, the caller's login to it, its codes, its held lines and
 * the event's catalogue version: one read.
 */
const namedBasket = prepared((db) =>
  db
    .select({
      basket: schema.baskets,
      event: schema.events,
      login: schema.frontendLogins,
      codes: codesOf,
      roomOn: roomOn(schema.baskets.eventId),
      held: heldOf(schema.baskets.id),
      catalogueVersion: catalogueVersionOf(schema.baskets.eventId),
    })
    .from(schema.baskets)
    .leftJoin(schema.events, eq(schema.events.id, schema.baskets.eventId))
    .leftJoin(
      schema.frontendLogins,
      eq(schema.frontendLogins.id, newestLogin(schema.baskets.eventId, schema.baskets.testing)),
    )
    .where(and(eq(schema.baskets.id, sql.placeholder("basketId")), inList(schema.baskets.createdById, "loginIds")))
    .prepare(),
);

/**
 * The event, the caller's login to it in the mode asked and their basket to reuse, the newest open one (as the
 * ticket office picks it, `OPEN_BASKET_STATUSES`) with its codes and held lines, and the event's catalogue
 * version: one read.
 */
const eventsOpenBasket = prepared((db) =>
  db
    .select({
      event: schema.events,
      login: schema.frontendLogins,
      basket: schema.baskets,
      codes: codesOf,
      roomOn: roomOn(schema.events.id),
      held: heldOf(schema.baskets.id),
      catalogueVersion: catalogueVersionOf(schema.events.id),
    })
    .from(schema.events)
    .leftJoin(
      schema.frontendLogins,
      eq(schema.frontendLogins.id, newestLogin(schema.events.id, sql.placeholder("testing"))),
    )
    .leftJoin(
      schema.baskets,
      eq(
        schema.baskets.id,
        sql`(select max(b.id) from baskets b where b.event_id = ${schema.events.id} and b.testing = ${sql.placeholder("testing")}
          and b.created_by_id in (select value from json_each(${sql.placeholder("loginIds")}))
          and b.status in (select value from json_each(${JSON.stringify(OPEN_BASKET_STATUSES)})))`,
      ),
    )
    .where(eq(schema.events.id, sql.placeholder("eventId")))
    .prepare(),
);

/**
 * Puts `quantity` identical lines of an article (and chosen options) in the basket, all of them or none. Every
 * stock linked to them moves by a guarded `UPDATE … WHERE used + n <= maximum` in the same transaction as the
 * rows: under any concurrency a stock never goes below zero, and the CHECK constraint on node_limits backs it up.
 * Answers the first line added. `promotionCodes`, `held` and `catalogueVersion`, when the caller has read them
 * (with the basket, as `addBasketItem` does), spare reading them again.
 */
export async function addSelectedNode(
  database: Database,
  input: {
    event: Event;
    basket: Basket;
    login: FrontendLogin;
    promotionCodes?: string[];
    held?: HeldLines;
    catalogueVersion?: number | null;
    nodeId: number;
    optionNodeIds: number[];
    quantity: number;
    now: Date;
    /** The buyer's: the titles answered and named in a refusal are in it (docs/decisions/0043). */
    language?: Language;
  },
) {
  const { event, basket, login, quantity, now } = input;
  const titleIn = (node: CatalogueNode) =>
    inLanguage(node.configuration.title, node.configuration.titleFr, input.language ?? "en");
  assertBasketActionsAllowed(event, basket.testing, now);
  // An add does not renew a live hold (docs/decisions/0036); to a basket whose hold ran out it starts a new one,
  // once what the basket held is given back as expired (it may be held again by hold-again).
  const expired = await expireIfDue(database, basket, now);
  const expiresAt = holdUntil(event, now);
  const catalogue = await getCatalogue(database.db, event.id, input.catalogueVersion);
  // Who the visitor is only matters through the catalogue's conditions: without any, their codes are not read.
  const visitor = input.promotionCodes
    ? { email: login.email, promotionCodes: input.promotionCodes }
    : catalogue.conditions.size
      ? await visitorOf(database.db, login, basket)
      : { email: login.email, promotionCodes: [] };
  // The article and the options chosen, each line priced for the visitor; 400 or 404 when they may not be chosen.
  const { article, lines, lineErrors, basketTree } = chooseArticle(catalogue, {
    nodeId: input.nodeId,
    optionNodeIds: input.optionNodeIds,
    visitor,
    now,
  });
  const added = Array.from({ length: quantity }, () => article.id);
  const caps = capsOf(event, article.configuration);
  // What the add writes, known before it: `quantity` copies of the article and its options, each line's stock links.
  const written: WrittenLine[] = [];
  const links: [line: number, limitId: number][] = [];
  const taken = new Map<number, { count: number; title: string }>();
  for (let copy = 0; copy < quantity; copy++) {
    const articleLine = written.length;
    for (const line of lines) {
      for (const limit of line.limits) {
        links.push([written.length, limit.id]);
        const entry = taken.get(limit.id) ?? { count: 0, title: titleIn(line.node) };
        entry.count += 1;
        taken.set(limit.id, entry);
      }
      written.push([
        line.node.id,
        line.node === article ? null : articleLine,
        line.node.configurationId,
        line.node.configuration.title,
        Number(line.node === article),
        Number(line.node.configuration.isSubjectToLausanneTax),
        line.price,
        line.node.configuration.titleFr,
      ]);
    }
  }

  // The basket's lines are read before the write, and the write goes through only if they are still exactly those
  // (the held-lines guard): two adds at once cannot both pass its groups' maximums or its item maximum. A basket
  // changed meanwhile is read again (each time, another add or removal went through: no livelock); anything else
  // refused is answered from what the refused write saw.
  // Held lines read before a hold that ran out was given back are read again.
  let known = expired ? undefined : input.held;
  for (;;) {
    if (basket.status !== "new") throw conflict("errors.basket_not_modifiable");
    const held = known ?? (await heldLinesOf(database.db, basket.id));
    known = undefined;
    const heldNodeIds = held.nodeIds;
    // …and the basket as a whole must not exceed a group's maximum or a single choice (minimums wait for checkout).
    const basketErrors = selectionErrors(basketTree, [...heldNodeIds, ...added]).filter(
      (error) => error.kind === "above_max" || error.kind === "single_choice",
    );
    // The most telling message first: "only one" says more than "less".
    const [groupError] = [...lineErrors, ...basketErrors].sort(
      (a, b) => Number(b.kind === "single_choice") - Number(a.kind === "single_choice"),
    );
    if (groupError)
      throw invalid(GROUP_ERROR_MESSAGES[groupError.kind].key, {
        option_node_ids: GROUP_ERROR_MESSAGES[groupError.kind].key,
      });
    const heldCount = held.articles;
    if (heldCount >= event.maxItemsPerBasket)
      throw conflict("errors.basket_item_limit", { max: event.maxItemsPerBasket });
    if (heldCount + quantity > event.maxItemsPerBasket)
      throw conflict("errors.quantity_above_item_limit", {
        max: event.maxItemsPerBasket,
        left: event.maxItemsPerBasket - heldCount,
      });
    const moves = JSON.stringify([...taken].map(([limitId, { count }]) => [limitId, count]));
    const results = await database.batch(
      addStatements(basket.testing ? "testing_used" : "used", {
        basketId: basket.id,
        ownerId: basket.createdById,
        caps: {
          condition: capCondition(caps, basket.createdById, quantity),
          figures: capFigures(caps, basket.createdById),
        },
        heldVersion: held.version,
        moves,
        limitCount: taken.size,
        lines: written,
        links,
        expiresAt,
        updatedAt: now.toISOString(),
      }),
    );
    const [accepted, seen, , inserted = []] = results;
    const refused = seen?.[0];
    if (accepted?.length) {
      // The answer is the first copy: its lines were inserted first, the article then its options, as `lines`.
      const ids = inserted.map((row) => rowOf(schema.selectedNodes, row).id).sort((a, b) => a - b);
      const [articleLine, ...optionLines] = lines;
      if (!articleLine || ids.length < lines.length) throw invalid("errors.not_an_article");
      return {
        id: ids[0] as number,
        nodeId: articleLine.node.id,
        title: titleIn(articleLine.node),
        price: lines.reduce((sum, line) => sum + line.price, 0),
        articlePrice: articleLine.price,
        options: optionLines.map((line, index) => ({
          id: ids[index + 1] as number,
          nodeId: line.node.id,
          title: titleIn(line.node),
          price: line.price,
        })),
      };
    }
    if (refused?.status !== "new") throw conflict("errors.basket_not_modifiable");
    if (Number(refused.held) !== held.version) continue;
    assertWithinCaps(caps, { held: Number(refused.buyer_held), articleHeld: Number(refused.article_held) }, quantity);
    // Read in the refused write's transaction, so the figure given is the one that refused.
    const remaining = new Map(JSON.parse(String(refused.remaining)) as [number, number][]);
    for (const [limitId, { count, title }] of taken) {
      const left = Math.max(0, remaining.get(limitId) ?? 0);
      if (left >= count) continue;
      throw left > 0
        ? conflict("errors.quantity_above_stock", { title, remaining: left })
        : conflict("errors.sold_out", { title });
    }
    // Refused, yet neither the basket nor a stock says why: never loop on it.
    throw conflict("errors.try_again");
  }
}

/** The basket's held lines and their version, read in one statement: what the add's guard compares. */
const heldLines = prepared((db) =>
  db
    // The placeholder, not the column: in a query of one table Drizzle writes a column unqualified, which inside
    // the subquery would name the line's own id.
    .select({ version: schema.baskets.heldVersion, held: heldOf(sql.placeholder("basketId")) })
    .from(schema.baskets)
    .where(eq(schema.baskets.id, sql.placeholder("basketId")))
    .prepare(),
);

async function heldLinesOf(db: Database["db"], basketId: number): Promise<HeldLines> {
  const row = await heldLines(db).get({ basketId });
  if (!row) throw notFound();
  return heldFromJson(row.version, row.held);
}

/** A basket's held lines as an add needs them: their version (the guard's), the nodes they hold, how many are articles. */
export interface HeldLines {
  version: number;
  nodeIds: number[];
  articles: number;
}

/** `heldOf`'s JSON value as `HeldLines` (a line whose node was deleted holds none). */
function heldFromJson(version: number, json: string): HeldLines {
  const [nodeIds, articles] = JSON.parse(json) as [(number | null)[], number];
  return { version, nodeIds: nodeIds.filter((id): id is number => id !== null), articles: Number(articles) };
}
