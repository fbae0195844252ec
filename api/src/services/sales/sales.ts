// Back-office sales: the baskets of the events a user may see.
import { and, asc, type Db, desc, eq, gte, inArray, lte, or, schema, sql } from "@ticketing/db";
import {
  type ArticleStatus,
  BASKET_STATUSES,
  type BasketStatus,
  SOLD_BASKET_STATUSES,
} from "@ticketing/shared/constants";
import type { Basket, BasketArticle, BasketDetail, BasketMail, ItemAnswers } from "@ticketing/shared/schemas/sales";
import type { BasketItem } from "@ticketing/shared/schemas/ticket-office";
import type { SQL, SQLWrapper } from "drizzle-orm";
import { DomainError, notFound } from "../../lib/errors.ts";
import { idFilter, type ListOptions, type ListQuery, listPage } from "../../lib/list-query.ts";
import { getVisibleEvent, inVisibleEvents, type User } from "../accounts/access.ts";
import { basketById, presentBasketDetail, presentBaskets } from "../baskets/basket-views.ts";
import { refundsOf } from "../invoices/refund-totals.ts";

/** The columns the baskets list (and its export) can be ordered by. */
export const BASKET_COLUMNS = {
  id: schema.baskets.id,
  status: schema.baskets.status,
  createdAt: schema.baskets.createdAt,
};

export const BASKET_LIST: ListOptions = {
  sortable: Object.keys(BASKET_COLUMNS),
  idFilters: ["id", "eventId", "event"],
};

/** `preview=true` (a flag from JSON or a query) asks for testing rows instead of real ones. */
export const isPreview = (filter: Record<string, unknown>) => filter.preview === true || filter.preview === "true";

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** ISO 8601 moment; without an offset it is read as UTC (never as the server's local time). */
const MOMENT = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Whether year-month-day is a day of the calendar (`2026-02-30` is not: `Date` would make it 2 March). */
function isCalendarDay(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day)
  );
}

/**
 * A bound of `created_from` / `created_to`: a date (the whole day, UTC: from its first moment, or up to its last) or
 * a moment (ISO 8601), inclusive; anything else is a 400.
 */
function dateBound(filter: Record<string, unknown>, key: "createdFrom" | "createdTo"): string | undefined {
  const value = filter[key];
  if (value === undefined || value === null || value === "") return undefined;
  const text = typeof value === "string" ? value.trim() : "";
  const day = DAY.exec(text);
  const moment = day ? null : MOMENT.exec(text);
  const parts = day ?? moment;
  const time = !parts
    ? Number.NaN
    : day
      ? Date.parse(`${text}T00:00:00.000Z`)
      : Date.parse(moment?.[4] ? text : `${text}Z`);
  if (!parts || !isCalendarDay(parts[1] as string, parts[2] as string, parts[3] as string) || Number.isNaN(time))
    throw new DomainError("invalid", ["errors.filter_date_invalid"], undefined, {
      name: key === "createdFrom" ? "created_from" : "created_to",
    });
  // A day as the upper bound takes the whole day: up to its last millisecond.
  const bound = day && key === "createdTo" ? time + 24 * 60 * 60 * 1000 - 1 : time;
  return new Date(bound).toISOString();
}

/** `q`: the reference, or the buyer's first name, last name or email, containing the text (any case). */
function searchCondition(filter: Record<string, unknown>): SQL | undefined {
  const q = typeof filter.q === "string" ? filter.q.trim() : "";
  if (!q) return undefined;
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const contains = (column: SQLWrapper) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;
  const { billingInformation: billing } = schema;
  return or(
    contains(schema.baskets.unikey),
    inArray(
      schema.baskets.billingInformationId,
      sql`(SELECT ${billing.id} FROM ${billing} WHERE ${or(
        contains(billing.firstName),
        contains(billing.lastName),
        contains(billing.email),
        contains(sql`${billing.firstName} || ' ' || ${billing.lastName}`),
      )})`,
    ),
  );
}

/**
 * Which baskets a list (or its export) shows: those of the events the user may see, filtered by event, status, id,
 * search text and creation dates. Testing baskets stay out of the back office's figures unless `preview=true` asks
 * for them (docs/design.md §4).
 */
export async function basketsWhere(db: Db, user: User, query: ListQuery): Promise<SQL | undefined> {
  const f = query.filter;
  if (f.status !== undefined && !(BASKET_STATUSES as readonly unknown[]).includes(f.status))
    throw new DomainError("invalid", ["errors.filter_status_invalid"], undefined, {
      statuses: BASKET_STATUSES.join(", "),
    });
  const from = dateBound(f, "createdFrom");
  const to = dateBound(f, "createdTo");
  return and(
    await inVisibleEvents(db, user, schema.baskets.eventId),
    idFilter(query, "eventId", schema.baskets.eventId) ?? idFilter(query, "event", schema.baskets.eventId),
    f.status === undefined ? undefined : eq(schema.baskets.status, f.status as BasketStatus),
    eq(schema.baskets.testing, isPreview(f)),
    idFilter(query, "id", schema.baskets.id),
    searchCondition(f),
    from ? gte(schema.baskets.createdAt, from) : undefined,
    to ? lte(schema.baskets.createdAt, to) : undefined,
  );
}

/** A page of the baskets the user may see, filtered as `basketsWhere` says. */
export async function listBaskets(db: Db, user: User, query: ListQuery): Promise<{ rows: Basket[]; total: number }> {
  const { rows, total } = await listPage(
    db,
    schema.baskets,
    await basketsWhere(db, user, query),
    query,
    BASKET_COLUMNS,
  );
  return { rows: await presentBaskets(db, rows), total };
}

/**
 * A basket of an event the user may see, with its promotion codes, payments, refunded articles, what was paid and
 * refunded, its articles' form answers and the mails about it; otherwise 404.
 */
export async function getBasket(db: Db, user: User, id: number): Promise<BasketDetail> {
  const basket = await basketById(db, id);
  if (!basket) throw notFound();
  await getVisibleEvent(db, user, basket.eventId);
  const detail = await presentBasketDetail(db, basket);
  const refunds = await refundsOf(db, basket.id);
  return {
    ...detail,
    ...refunds,
    articles: articlesOf(basket.status, {
      held: detail.items,
      expired: detail.expiredItems,
      refunded: refunds.refundedItems,
    }),
    answers: await answersOf(db, basket.id),
    mails: await mailsOf(db, basket.id),
  };
}

/**
 * An article's status as staff read it (ARTICLE_STATUSES): its line's, and for a line still held, its basket's, as
 * the stocks count them (docs/design.md §4 "Stock": held in a basket not paid, sold in a validated one, or one reopened
 * to edit its answers). A line stays `held` once sold: the basket's status says it was paid.
 */
function articleStatus(line: "held" | "expired" | "refunded", basket: BasketStatus): ArticleStatus {
  if (line !== "held") return line;
  if ((SOLD_BASKET_STATUSES as readonly BasketStatus[]).includes(basket)) return "sold";
  return basket === "payment_in_progress" ? "awaiting_payment" : "held";
}

/** Every article of a basket, whatever its line's status, in the order they were chosen, each with its status. */
function articlesOf(basket: BasketStatus, lines: Record<"held" | "expired" | "refunded", BasketItem[]>) {
  const articles: BasketArticle[] = [];
  for (const [line, items] of Object.entries(lines) as ["held" | "expired" | "refunded", BasketItem[]][])
    for (const item of items) articles.push({ ...item, status: articleStatus(line, basket) });
  return articles.sort((a, b) => a.id - b.id);
}

/** The form answers of a basket's articles (held or refunded), grouped per article in the order they were given. */
export async function answersOf(db: Db, basketId: number): Promise<ItemAnswers[]> {
  const { selectedNodes, selectedNodeExtraInfoGroups: groups, selectedNodeExtraInfos: infos } = schema;
  const rows = await db
    .select({ itemId: selectedNodes.id, group: groups.name, name: infos.name, type: infos.type, value: infos.value })
    .from(infos)
    .innerJoin(groups, eq(groups.id, infos.selectedGroupId))
    .innerJoin(selectedNodes, eq(selectedNodes.id, groups.selectedNodeId))
    .where(and(eq(selectedNodes.basketId, basketId), inArray(selectedNodes.status, ["held", "refunded"])))
    .orderBy(asc(selectedNodes.id), asc(groups.id), asc(infos.id))
    .all();
  const perItem = new Map<number, ItemAnswers>();
  for (const { itemId, ...answer } of rows) {
    const entry = perItem.get(itemId) ?? { itemId, answers: [] };
    entry.answers.push(answer);
    perItem.set(itemId, entry);
  }
  return [...perItem.values()];
}

/** The mails about a basket (their payload names it), newest first. */
export async function mailsOf(db: Db, basketId: number): Promise<BasketMail[]> {
  const { mailOutbox } = schema;
  return db
    .select({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      to: mailOutbox.to,
      status: mailOutbox.status,
      subject: mailOutbox.subject,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(sql`json_extract(${mailOutbox.payload}, '$.basket_id') = ${basketId}`)
    .orderBy(desc(mailOutbox.id))
    .all();
}
