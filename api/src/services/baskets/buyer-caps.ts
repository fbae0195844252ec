// Caps per buyer (docs/decisions/0036): at most `max_tickets_per_buyer` articles of an event per buyer, and at most
// `max_per_buyer` of an article (its configuration's), over ALL of the buyer's baskets on the event that hold or
// sold them. A buyer is a login: per email for trusted-email and third-party logins (one login per event, mode and
// email), per sign-in for guests. Checked inside the add's guarded write (add-to-basket.ts), so two adds at once on
// two baskets of one buyer cannot both pass; an event and an article with no cap add nothing to the write.
import { and, type Db, eq, inArray, run, type Statement, schema, sql } from "@ticketing/db";
import { STOCK_HOLDING_BASKET_STATUSES } from "@ticketing/shared/constants";
import { conflict } from "../../lib/errors.ts";
import type { Event } from "../accounts/access.ts";

/**
 * The baskets whose held articles count: those whose articles count against a stock — open or sold (a sold basket's
 * lines stay `held`), never refunded.
 */
const CAPPED_BASKET_STATUSES = STOCK_HOLDING_BASKET_STATUSES;

/** The caps an add of one article meets: the event's and the article's, each null when there is none. */
export interface BuyerCaps {
  event: number | null;
  article: number | null;
  configurationId: number;
  title: string;
}

/** The caps on adding the article (its configuration), or null when neither the event nor the article has one. */
export function capsOf(
  event: Pick<Event, "maxTicketsPerBuyer">,
  configuration: { id: number; title: string; maxPerBuyer: number | null },
): BuyerCaps | null {
  if (event.maxTicketsPerBuyer === null && configuration.maxPerBuyer === null) return null;
  return {
    event: event.maxTicketsPerBuyer,
    article: configuration.maxPerBuyer,
    configurationId: configuration.id,
    title: configuration.title,
  };
}

const STATUSES = CAPPED_BASKET_STATUSES.map((status) => `'${status}'`).join(", ");

/** The articles the buyer (`?`: their login) holds over their baskets; `extra` narrows (one configuration). */
const heldByBuyer = (extra = "") => `(select count(*) from selected_nodes s join baskets b on b.id = s.basket_id
  where b.created_by_id = ? and b.status in (${STATUSES}) and s.is_article = 1 and s.status = 'held'${extra})`;

/** The guard's condition (` and …`): `quantity` more still fit every cap. Empty without caps. */
export function capCondition(caps: BuyerCaps | null, ownerId: number, quantity: number): Statement {
  if (!caps) return { sql: "", args: [] };
  const parts: Statement[] = [];
  if (caps.event !== null) parts.push({ sql: `${heldByBuyer()} + ? <= ?`, args: [ownerId, quantity, caps.event] });
  if (caps.article !== null)
    parts.push({
      sql: `${heldByBuyer(" and s.configuration_id = ?")} + ? <= ?`,
      args: [ownerId, caps.configurationId, quantity, caps.article],
    });
  return { sql: parts.map((part) => ` and ${part.sql}`).join(""), args: parts.flatMap((part) => part.args) };
}

/** The refused SELECT's columns (`, … as buyer_held, … as article_held`): what the buyer held when it refused. */
export function capFigures(caps: BuyerCaps | null, ownerId: number): Statement {
  if (!caps) return { sql: "", args: [] };
  return {
    sql: `, ${heldByBuyer()} as buyer_held, ${heldByBuyer(" and s.configuration_id = ?")} as article_held`,
    args: [ownerId, ownerId, caps.configurationId],
  };
}

/**
 * Throws the 409 a buyer holding `held` articles (`articleHeld` of this one) gets for asking `quantity` more, when a
 * cap refuses them: the event's first ("at most N tickets"), then the article's.
 */
export function assertWithinCaps(
  caps: BuyerCaps | null,
  figures: { held: number; articleHeld: number },
  quantity: number,
) {
  if (!caps) return;
  if (caps.event !== null && figures.held + quantity > caps.event) {
    const left = Math.max(0, caps.event - figures.held);
    throw left > 0
      ? conflict("errors.quantity_above_buyer_limit", { max: caps.event, left })
      : conflict("errors.buyer_ticket_limit", { max: caps.event });
  }
  if (caps.article !== null && figures.articleHeld + quantity > caps.article)
    throw conflict("errors.article_buyer_limit", {
      max: caps.article,
      left: Math.max(0, caps.article - figures.articleHeld),
      title: caps.title,
    });
}

/**
 * What the buyer (their login) holds now, in all and per configuration: read inside a write transaction (holding
 * expired articles again) so that what it then writes fits the caps it read.
 */
export function* heldByBuyerIn(tx: Db, ownerId: number): Generator<unknown, BuyerHoldings, unknown> {
  const rows = yield* run(
    tx
      .select({ configurationId: schema.selectedNodes.configurationId, count: sql<number>`count(*)` })
      .from(schema.selectedNodes)
      .innerJoin(schema.baskets, eq(schema.baskets.id, schema.selectedNodes.basketId))
      .where(
        and(
          eq(schema.baskets.createdById, ownerId),
          inArray(schema.baskets.status, [...CAPPED_BASKET_STATUSES]),
          eq(schema.selectedNodes.isArticle, true),
          eq(schema.selectedNodes.status, "held"),
        ),
      )
      .groupBy(schema.selectedNodes.configurationId)
      .all(),
  );
  const perConfiguration = new Map(rows.map((row) => [row.configurationId, Number(row.count)]));
  return { total: rows.reduce((sum, row) => sum + Number(row.count), 0), perConfiguration };
}

export interface BuyerHoldings {
  total: number;
  perConfiguration: Map<number | null, number>;
}

/** Whether one more article of `configurationId` fits the caps, given what the buyer holds (`holdings`). */
export function fitsCaps(
  event: Pick<Event, "maxTicketsPerBuyer">,
  configuration: { id: number; maxPerBuyer: number | null } | undefined,
  holdings: BuyerHoldings,
) {
  if (event.maxTicketsPerBuyer !== null && holdings.total + 1 > event.maxTicketsPerBuyer) return false;
  const max = configuration?.maxPerBuyer ?? null;
  return max === null || (holdings.perConfiguration.get(configuration?.id ?? null) ?? 0) + 1 <= max;
}

/** Counts one more article of `configurationId` held by the buyer. */
export function noteHolding(holdings: BuyerHoldings, configurationId: number | null) {
  holdings.total += 1;
  holdings.perConfiguration.set(configurationId, (holdings.perConfiguration.get(configurationId) ?? 0) + 1);
}
