// Holds and their release: how long a basket change holds its articles, whether the event takes basket changes now,
// and the stock moves that take and give back what held lines hold (exactly once each, in the transaction or batch
// that changes the lines: docs/decisions/0002, 0026). Removing a line, and the sweep of expired holds.
import { and, type Database, type Db, eq, inArray, lt, rowOf, run, type Statement, schema, sql } from "@ticketing/db";
import type { SelectedNodeStatus } from "@ticketing/shared/constants";
import { eventWindows } from "@ticketing/shared/ticket-office";
import { conflict, notFound } from "../../lib/errors.ts";
import type { Event } from "../accounts/access.ts";
import { offerStatements, offersDue, runStatements, statementSql } from "../waiting-list/offers.ts";
import type { Basket } from "./rows.ts";

type Tx = Db;

/** When a hold started or renewed at `now` ends: the event's reservation time later. */
export const holdUntil = (event: Event, now: Date) =>
  new Date(now.getTime() + event.reservationMinutes * 60_000).toISOString();

/** Basket actions are allowed in testing mode, or when registrations are allowed (docs/specification.md §4). */
export function assertBasketActionsAllowed(event: Event, testing: boolean, now: Date) {
  if (!testing && !eventWindows(event, now).isBasketItemModificationAllowed)
    throw conflict("errors.registrations_closed");
}

/** How far each stock counter moves for these links of selected nodes: real and testing counts apart. */
export function movesPerLimit(links: { limitId: number; isTesting: boolean }[]) {
  const perLimit = new Map<number, { used: number; testingUsed: number }>();
  for (const link of links) {
    const entry = perLimit.get(link.limitId) ?? { used: 0, testingUsed: 0 };
    if (link.isTesting) entry.testingUsed += 1;
    else entry.used += 1;
    perLimit.set(link.limitId, entry);
  }
  return perLimit;
}

/**
 * Takes what `moves` needs from every stock counter, or nothing when one of them has no room (false): each counter
 * is checked first, in the write transaction that then moves them by a guarded `used + n <= maximum`, as an add
 * does. The transaction is the only writer, so the check holds; should a move still fail, it throws and the whole
 * transaction rolls back (never oversold).
 */
export function* takeStock(tx: Tx, moves: ReturnType<typeof movesPerLimit>): Generator<unknown, boolean, unknown> {
  if (moves.size === 0) return true;
  const limits = yield* run(
    tx
      .select()
      .from(schema.nodeLimits)
      .where(inArray(schema.nodeLimits.id, [...moves.keys()]))
      .all(),
  );
  // What waiting-list entries in line ask for is theirs first (docs/decisions/0038).
  const hasRoom = limits.every((limit) => {
    const wanted = moves.get(limit.id) ?? { used: 0, testingUsed: 0 };
    return (
      limit.used + limit.waiting + wanted.used <= limit.maximum &&
      limit.testingUsed + limit.testingWaiting + wanted.testingUsed <= limit.maximum
    );
  });
  if (limits.length !== moves.size || !hasRoom) return false;
  const { used, testingUsed, maximum, waiting, testingWaiting } = schema.nodeLimits;
  for (const [limitId, wanted] of moves) {
    const moved = yield* run(
      tx
        .update(schema.nodeLimits)
        .set({ used: sql`${used} + ${wanted.used}`, testingUsed: sql`${testingUsed} + ${wanted.testingUsed}` })
        .where(
          and(
            eq(schema.nodeLimits.id, limitId),
            sql`${used} + ${waiting} + ${wanted.used} <= ${maximum}`,
            sql`${testingUsed} + ${testingWaiting} + ${wanted.testingUsed} <= ${maximum}`,
          ),
        )
        .returning({ id: schema.nodeLimits.id })
        .get(),
    );
    if (!moved) throw conflict("errors.sold_out", { title: "" });
  }
  return true;
}

/**
 * Releases held selected nodes and gives their stock back, exactly once each (inside a transaction); `status` is
 * what they become: `released`, `expired` when their reservation time ran out, or `refunded` by a refund. What
 * comes free goes to the waiting list first, offered in the same transaction (docs/decisions/0038).
 */
export function* releaseSelectedNodes(
  tx: Tx,
  selectedNodeIds: number[],
  status: Exclude<SelectedNodeStatus, "held">,
  now: Date,
): Generator<unknown, number, unknown> {
  if (selectedNodeIds.length === 0) return 0;
  const held = yield* run(
    tx
      .select({ id: schema.selectedNodes.id })
      .from(schema.selectedNodes)
      .where(and(inArray(schema.selectedNodes.id, selectedNodeIds), eq(schema.selectedNodes.status, "held")))
      .all(),
  );
  const ids = held.map((r) => r.id);
  if (ids.length === 0) return 0;
  const links = yield* run(
    tx.select().from(schema.selectedNodeLimits).where(inArray(schema.selectedNodeLimits.selectedNodeId, ids)).all(),
  );
  const perLimit = movesPerLimit(links);
  for (const [limitId, { used, testingUsed }] of perLimit)
    yield* run(
      tx
        .update(schema.nodeLimits)
        .set({
          used: sql`${schema.nodeLimits.used} - ${used}`,
          testingUsed: sql`${schema.nodeLimits.testingUsed} - ${testingUsed}`,
        })
        .where(eq(schema.nodeLimits.id, limitId))
        .run(),
    );
  yield* run(tx.update(schema.selectedNodes).set({ status }).where(inArray(schema.selectedNodes.id, ids)).run());
  yield* runStatements(tx, offerStatements(now.toISOString()));
  return ids.length;
}

/** The condition selecting a basket's held article lines (not options, not released or refunded). */
export const heldArticlesOf = (basketId: number) =>
  and(
    eq(schema.selectedNodes.basketId, basketId),
    eq(schema.selectedNodes.isArticle, true),
    eq(schema.selectedNodes.status, "held"),
  );

/** The condition selecting one held article line of a basket. */
export const heldArticleOf = (basketId: number, selectedNodeId: number) =>
  and(eq(schema.selectedNodes.id, selectedNodeId), heldArticlesOf(basketId));

/**
 * Gives back the stock of the held lines `lines` selects (a SELECT of ids), then marks them `status`, as one pair of
 * statements of a batch (ADR 0026): both read the same held lines, and nothing runs between them, so each line's
 * stock comes back exactly once. `guard`, when given, is a condition both also require (the first cannot chain on
 * `changes()`: a line with no stock moves no counter). The second answers the ids released.
 */
function releaseStatements(
  lines: Statement,
  status: Exclude<SelectedNodeStatus, "held">,
  guard: Statement = { sql: "1", args: [] },
): Statement[] {
  const held = `select id from selected_nodes where status = 'held' and id in (${lines.sql}) and ${guard.sql}`;
  return [
    {
      sql: `update node_limits set used = used - m.real_count, testing_used = testing_used - m.testing_count
        from (select limit_id as id, sum(is_testing = 0) as real_count, sum(is_testing = 1) as testing_count
          from selected_node_limits where selected_node_id in (${held}) group by limit_id) m
        where node_limits.id = m.id`,
      args: [...lines.args, ...guard.args],
    },
    {
      sql: `update selected_nodes set status = ? where id in (${held}) returning id`,
      args: [status, ...lines.args, ...guard.args],
    },
  ];
}

/** Removes an article (with its options) from a `new` basket, in one round trip. */
export async function removeSelectedNode(
  database: Database,
  input: { event: Event; basket: Basket; selectedNodeId: number; now: Date },
) {
  const { event, basket, now } = input;
  assertBasketActionsAllowed(event, basket.testing, now);
  const line = { basketId: basket.id, id: input.selectedNodeId };
  // The basket still `new` and the article still held in it: the guard of the basket's touch and of the release. A
  // removal does not renew the hold (docs/decisions/0036): only hold-again does, a bounded number of times.
  const guard: Statement = {
    sql: `exists (select 1 from baskets b join selected_nodes a on a.basket_id = b.id
      where b.id = ? and b.status = 'new' and a.id = ? and a.is_article = 1 and a.status = 'held')`,
    args: [line.basketId, line.id],
  };
  const [row, renewed, refused] = await database.batch([
    {
      sql: "select * from selected_nodes where id = ? and basket_id = ? and is_article = 1",
      args: [line.id, line.basketId],
    },
    {
      sql: `update baskets set updated_at = ? where id = ? and ${guard.sql} returning status`,
      args: [now.toISOString(), basket.id, ...guard.args],
    },
    // Read before the release: only a refused one needs it, to tell 409 from 404.
    { sql: "select status from baskets where id = ? and changes() = 0", args: [basket.id] },
    ...releaseStatements(
      { sql: "select id from selected_nodes where id = ? or parent_id = ?", args: [line.id, line.id] },
      "released",
      guard,
    ),
    // What came free goes to the waiting list first, in this same batch (docs/decisions/0038).
    ...offerStatements(now.toISOString()),
  ]);
  if (!renewed?.length) throw refused?.[0]?.status === "new" ? notFound() : conflict("errors.basket_not_modifiable");
  return rowOf(schema.selectedNodes, row?.[0] ?? {});
}

/**
 * Gives back the stock held by `new` baskets whose reservation time is over (every basket, or the one named), its
 * lines marked `expired`: the 30 s sweep, and a basket read by its buyer after its time (not a sweep later). What
 * comes free goes to the waiting list first, in the same batch; the sweep also gives back lapsed offers and makes
 * any offer due (a stock raised, say: docs/decisions/0038). Returns how many lines were released.
 */
export async function releaseExpiredHolds(database: Database, now: Date, basketId?: number): Promise<number> {
  const expiredLines = () =>
    database.db
      .select({ id: schema.selectedNodes.id })
      .from(schema.selectedNodes)
      .innerJoin(schema.baskets, eq(schema.baskets.id, schema.selectedNodes.basketId))
      .where(
        and(
          basketId === undefined ? undefined : eq(schema.baskets.id, basketId),
          eq(schema.baskets.status, "new"),
          lt(schema.baskets.expiresAt, now.toISOString()),
          eq(schema.selectedNodes.status, "held"),
        ),
      );
  // A plain read first: a basket already expired, read again by its buyer, and a sweep that finds nothing take no
  // write lock. The batch selects the lines again, so a line released meanwhile is not given back twice.
  const nowIso = now.toISOString();
  const [line, offers] = await Promise.all([
    expiredLines().limit(1).get(),
    basketId === undefined ? database.db.all(statementSql(offersDue(nowIso))) : [],
  ]);
  if (!line && !offers.length) return 0;
  const { sql: selectExpired, params } = expiredLines().toSQL();
  const expired: Statement = { sql: selectExpired, args: params as Statement["args"] };
  const [, released] = await database.batch([...releaseStatements(expired, "expired"), ...offerStatements(nowIso)]);
  return released?.length ?? 0;
}

/**
 * Expires the basket at once when its buyer reads it after its reservation time: the stock it held goes back now,
 * not at the next sweep, and the buyer sees the same basket whoever answers first. Answers whether it was due:
 * its held lines, read before, may then be held no longer.
 */
export async function expireIfDue(database: Database, basket: Basket, now: Date): Promise<boolean> {
  if (basket.status !== "new" || basket.expiresAt >= now.toISOString()) return false;
  await releaseExpiredHolds(database, now, basket.id);
  return true;
}
