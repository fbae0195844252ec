// Baskets and the atomic stock check (DESIGN.md 4 "Stock", "Basket lifecycle").
import { randomBytes } from "node:crypto";
import {
  and,
  asc,
  type Database,
  type Db,
  desc,
  eq,
  inArray,
  lt,
  prepared,
  rowOf,
  run,
  type Statement,
  schema,
  sql,
} from "@ticketing/db";
import type { Visitor } from "@ticketing/shared/conditions";
import { GROUP_CATEGORIES, type SelectedNodeStatus } from "@ticketing/shared/constants";
import { GROUP_ERROR_MESSAGES, type SelectionNode, selectionErrors } from "@ticketing/shared/groups";
import { eventWindows } from "@ticketing/shared/ticket-office";
import { conflict, invalid, notFound } from "../../lib/errors.ts";
import { inList, jsonList } from "../../lib/id-lists.ts";
import type { Event } from "../accounts/access.ts";
import {
  type CatalogueNode,
  getCatalogue,
  isVisible,
  nodePrice,
  optionsOf,
  selectionTree,
} from "../catalogue/catalogue.ts";

export type Basket = typeof schema.baskets.$inferSelect;
export type FrontendLogin = typeof schema.frontendLogins.$inferSelect;
type Tx = Db;

const UNIKEY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const newUnikey = () => Array.from(randomBytes(10), (b) => UNIKEY_ALPHABET[b % UNIKEY_ALPHABET.length]).join("");

export const holdUntil = (event: Event, now: Date) =>
  new Date(now.getTime() + event.reservationMinutes * 60_000).toISOString();

const basketById = prepared((db) =>
  db
    .select()
    .from(schema.baskets)
    .where(eq(schema.baskets.id, sql.placeholder("id")))
    .prepare(),
);

/** The basket if it belongs to one of the caller's frontend logins; otherwise 404. */
export async function findOwnedBasket(db: Db, loginIds: number[], basketId: number): Promise<Basket> {
  const basket = await basketById(db).get({ id: basketId });
  if (!basket || !loginIds.includes(basket.createdById)) throw notFound();
  return basket;
}

const loginById = prepared((db) =>
  db
    .select()
    .from(schema.frontendLogins)
    .where(eq(schema.frontendLogins.id, sql.placeholder("id")))
    .prepare(),
);

/**
 * The caller's newest login for the event and testing flag, or 404. A caller holds a few logins (one per event and
 * mode visited): each is read by its key, newest first, rather than searched among all the event's logins.
 */
export async function findLogin(db: Db, loginIds: number[], eventId: number, testing: boolean): Promise<FrontendLogin> {
  for (const id of [...loginIds].sort((a, b) => b - a)) {
    const login = await loginById(db).get({ id });
    if (login?.eventId === eventId && login.testing === testing) return login;
  }
  throw notFound();
}

/** The caller's baskets, newest first; the event and testing filters are null when not asked (testing as 0/1). */
const ownBaskets = prepared((db) =>
  db
    .select()
    .from(schema.baskets)
    .where(
      and(
        inList(schema.baskets.createdById, "loginIds"),
        sql`(${sql.placeholder("eventId")} is null or ${schema.baskets.eventId} = ${sql.placeholder("eventId")})`,
        sql`(${sql.placeholder("testing")} is null or ${schema.baskets.testing} = ${sql.placeholder("testing")})`,
      ),
    )
    .orderBy(desc(schema.baskets.id))
    .prepare(),
);

export async function listOwnBaskets(db: Db, loginIds: number[], filter: { eventId?: number; testing?: boolean }) {
  return ownBaskets(db).all({
    loginIds: jsonList(loginIds),
    eventId: filter.eventId ?? null,
    testing: filter.testing === undefined ? null : Number(filter.testing),
  });
}

/** Basket actions are allowed in testing mode, or when registrations are allowed (SPEC 4). */
export function assertBasketActionsAllowed(event: Event, testing: boolean, now: Date) {
  if (!testing && !eventWindows(event, now).isBasketItemModificationAllowed)
    throw conflict("errors.registrations_closed");
}

export async function createBasket(database: Database, event: Event, login: FrontendLogin, now: Date): Promise<Basket> {
  assertBasketActionsAllowed(event, login.testing, now);
  return database.transaction(function* (tx) {
    return yield* run(
      tx
        .insert(schema.baskets)
        .values({
          eventId: event.id,
          createdById: login.id,
          testing: login.testing,
          unikey: newUnikey(),
          expiresAt: holdUntil(event, now),
        })
        .returning()
        .get(),
    );
  });
}

const promotionCodesOfBasket = prepared((db) =>
  db
    .select({
      id: schema.selectedPromotionCodes.id,
      name: schema.promotionCodes.name,
      value: schema.promotionCodes.value,
    })
    .from(schema.selectedPromotionCodes)
    .innerJoin(schema.promotionCodes, eq(schema.promotionCodes.id, schema.selectedPromotionCodes.promotionCodeId))
    .where(eq(schema.selectedPromotionCodes.basketId, sql.placeholder("basketId")))
    .orderBy(asc(schema.selectedPromotionCodes.id))
    .prepare(),
);

export async function activePromotionCodes(db: Db, basketId: number) {
  return promotionCodesOfBasket(db).all({ basketId });
}

export async function visitorOf(db: Db, login: FrontendLogin, basket: Basket | null): Promise<Visitor> {
  const codes = basket ? await activePromotionCodes(db, basket.id) : [];
  return { email: login.email, promotionCodes: codes.map((c) => c.value) };
}

/**
 * Puts `quantity` identical lines of an article (and chosen options) in the basket, all of them or none. Every
 * stock linked to them moves by a guarded `UPDATE … WHERE used + n <= maximum` in the same transaction as the
 * rows: under any concurrency a stock never goes below zero, and the CHECK constraint on node_limits backs it up.
 * Answers the first line added.
 */
export async function addSelectedNode(
  database: Database,
  input: {
    event: Event;
    basket: Basket;
    login: FrontendLogin;
    nodeId: number;
    optionNodeIds: number[];
    quantity: number;
    now: Date;
  },
) {
  const { event, basket, login, quantity, now } = input;
  assertBasketActionsAllowed(event, basket.testing, now);
  const catalogue = await getCatalogue(database.db, event.id);
  const article = catalogue.byId.get(input.nodeId);
  if (article?.configuration.category !== "article")
    throw invalid("errors.not_an_article", { node_id: "errors.not_an_article" });
  const allowedOptions = new Map(optionsOf(article).map((o) => [o.id, o]));
  const options = [...new Set(input.optionNodeIds)].map((id) => {
    const option = allowedOptions.get(id);
    if (!option) throw invalid("errors.invalid_option", { option_node_ids: "errors.invalid_option" });
    return option;
  });
  // Who the visitor is only matters through the catalogue's conditions: without any, their codes are not read.
  const visitor = catalogue.conditions.size
    ? await visitorOf(database.db, login, basket)
    : { email: login.email, promotionCodes: [] };
  // Only what the visitor may see now can be bought (access rules, availability windows).
  if (![article, ...options].every((node) => isVisible(catalogue, node, visitor, now))) throw notFound();
  // The line itself must satisfy the ranges of the article and of its option groups (e.g. "choose one size")…
  const lineErrors = selectionErrors(selectionTree(article), [article.id, ...options.map((o) => o.id)]);
  // An option group with a minimum asks for a choice even when the buyer chose nothing in it ("pick a size").
  for (const group of article.children) {
    if (!(GROUP_CATEGORIES as readonly string[]).includes(group.configuration.category) || group.cart.rangeMin === 0)
      continue;
    const chosen = new Set(options.map((o) => o.id));
    const weight = optionsOf(group)
      .filter((o) => chosen.has(o.id))
      .reduce((sum, o) => sum + o.cart.weight, 0);
    if (weight < group.cart.rangeMin)
      lineErrors.push({ kind: "below_min", nodeId: group.id, sum: weight, min: group.cart.rangeMin });
  }
  const lines = [article, ...options].map((node) => ({
    node,
    price: nodePrice(catalogue, node, visitor),
    limits: catalogue.limitsByConfiguration.get(node.configurationId) ?? [],
  }));
  const added = Array.from({ length: quantity }, () => article.id);
  // What the add writes, known before it: `quantity` copies of the article and its options, each line's stock links.
  const written: WrittenLine[] = [];
  const links: [line: number, limitId: number][] = [];
  const taken = new Map<number, { count: number; title: string }>();
  for (let copy = 0; copy < quantity; copy++) {
    const articleLine = written.length;
    for (const line of lines) {
      for (const limit of line.limits) {
        links.push([written.length, limit.id]);
        const entry = taken.get(limit.id) ?? { count: 0, title: line.node.configuration.title };
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
      ]);
    }
  }

  // The basket's lines are read before the write, and the write goes through only if they are still exactly those
  // (the held-lines guard): two adds at once cannot both pass its groups' maximums or its item maximum. A basket
  // changed meanwhile is read again (each time, another add or removal went through: no livelock); anything else
  // refused is answered from what the refused write saw.
  for (;;) {
    if (basket.status !== "new") throw conflict("errors.basket_not_modifiable");
    const held = await heldLines(database.db).all({ basketId: basket.id });
    const heldNodeIds = held.flatMap((line) => (line.nodeId === null ? [] : [line.nodeId]));
    // …and the basket as a whole must not exceed a group's maximum or a single choice (minimums wait for checkout).
    const basketErrors = selectionErrors(selectionTreeOf(catalogue.root), [...heldNodeIds, ...added]).filter(
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
    const heldCount = held.filter((line) => line.isArticle).length;
    if (heldCount >= event.maxItemsPerBasket)
      throw conflict("errors.basket_item_limit", { max: event.maxItemsPerBasket });
    if (heldCount + quantity > event.maxItemsPerBasket)
      throw conflict("errors.quantity_above_item_limit", {
        max: event.maxItemsPerBasket,
        left: event.maxItemsPerBasket - heldCount,
      });
    const heldIds = JSON.stringify(held.map((line) => line.id));
    const moves = JSON.stringify([...taken].map(([limitId, { count }]) => [limitId, count]));
    const results = await database.batch(
      addStatements(basket.testing ? "testing_used" : "used", {
        basketId: basket.id,
        ownerId: basket.createdById,
        heldIds,
        moves,
        limitCount: taken.size,
        lines: written,
        links,
        expiresAt: holdUntil(event, now),
        updatedAt: now.toISOString(),
      }),
    );
    const [renewed, seen, , inserted = []] = results;
    const refused = seen?.[0];
    if (renewed?.length) {
      const rows = inserted.map((row) => rowOf(schema.selectedNodes, row)).sort((a, b) => a.id - b.id);
      const [item] = shapeItems(rows);
      if (!item) throw invalid("errors.not_an_article");
      return item;
    }
    if (refused?.status !== "new") throw conflict("errors.basket_not_modifiable");
    if (refused.held !== heldIds) continue;
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

/** One line an add writes: node, index of its article's line (null for the article), configuration, title, flags, price. */
type WrittenLine = [number, number | null, number | null, string, number, number, number];

/** The held lines of a basket (`?`) in the order of their ids, as the guard of an add compares them (a JSON array). */
const HELD_IDS = `(select json_group_array(id) from (select id from selected_nodes
  where basket_id = ? and status = 'held' order by id))`;

/** The ids the next lines get: after every id the table had or has (AUTOINCREMENT's promise, kept by hand). */
const NEXT_BASE = `(select max(coalesce((select seq from sqlite_sequence where name = 'selected_nodes'), 0),
  coalesce((select max(id) from selected_nodes), 0)) as id)`;

/**
 * The add as one batch (ADR 0026). The first statement is the guard: it renews the hold only if the basket is
 * still `new` and the caller's, holds exactly the lines read before, and every stock has room; each later write
 * runs only if the statement before it changed as many rows as it must (`changes()`), so a refused guard writes
 * nothing. The SELECT after the guard answers only when it refused: what it saw, to tell the buyer why.
 */
const addStatements = (
  counter: "used" | "testing_used",
  input: {
    basketId: number;
    ownerId: number;
    heldIds: string;
    moves: string;
    limitCount: number;
    lines: WrittenLine[];
    links: [number, number][];
    expiresAt: string;
    updatedAt: string;
  },
): Statement[] => {
  const statements: Statement[] = [
    {
      sql: `update baskets set expires_at = ?, updated_at = ?
        where id = ? and status = 'new' and created_by_id = ? and ${HELD_IDS} = ?
        and (select count(*) from node_limits l, json_each(?) m where l.id = json_extract(m.value, '$[0]')
          and l.${counter} + json_extract(m.value, '$[1]') <= l.maximum) = ?
        returning id`,
      args: [
        input.expiresAt,
        input.updatedAt,
        input.basketId,
        input.ownerId,
        input.basketId,
        input.heldIds,
        input.moves,
        input.limitCount,
      ],
    },
    {
      sql: `select status, ${HELD_IDS} as held,
        (select json_group_array(json_array(l.id, l.maximum - l.${counter})) from node_limits l
          where l.id in (select json_extract(value, '$[0]') from json_each(?))) as remaining
        from baskets where id = ? and changes() = 0`,
      args: [input.basketId, input.moves, input.basketId],
    },
  ];
  let changed = 1;
  if (input.limitCount > 0) {
    statements.push({
      sql: `update node_limits set ${counter} = ${counter} + m.count
        from (select json_extract(value, '$[0]') as id, json_extract(value, '$[1]') as count from json_each(?)) m
        where node_limits.id = m.id and changes() = ?`,
      args: [input.moves, changed],
    });
    changed = input.limitCount;
  } else statements.push({ sql: "select 1 where 0", args: [] });
  statements.push({
    sql: `insert into selected_nodes
        (id, basket_id, node_id, parent_id, configuration_id, title, is_article, is_subject_to_lausanne_tax, price)
      select base.id + line.key + 1, ?, json_extract(line.value, '$[0]'),
        base.id + 1 + json_extract(line.value, '$[1]'), json_extract(line.value, '$[2]'),
        json_extract(line.value, '$[3]'), json_extract(line.value, '$[4]'), json_extract(line.value, '$[5]'),
        json_extract(line.value, '$[6]')
      from json_each(?) line, ${NEXT_BASE} base
      where changes() = ?
      returning *`,
    args: [input.basketId, JSON.stringify(input.lines), changed],
  });
  if (input.links.length > 0)
    statements.push({
      // The lines just written hold the highest ids: the first is the highest less their count, plus one.
      sql: `insert into selected_node_limits (selected_node_id, limit_id, is_testing)
        select (select max(id) from selected_nodes) - ? + 1 + json_extract(value, '$[0]'),
          json_extract(value, '$[1]'), ?
        from json_each(?)
        where changes() = ?`,
      args: [input.lines.length, Number(counter === "testing_used"), JSON.stringify(input.links), input.lines.length],
    });
  return statements;
};

/** The whole tree's ranges, built once per catalogue (a cached catalogue is one object until it changes). */
const selectionTrees = new WeakMap<CatalogueNode, SelectionNode>();
function selectionTreeOf(root: CatalogueNode): SelectionNode {
  let tree = selectionTrees.get(root);
  if (!tree) {
    tree = selectionTree(root);
    selectionTrees.set(root, tree);
  }
  return tree;
}

const heldLines = prepared((db) =>
  db
    .select({
      id: schema.selectedNodes.id,
      nodeId: schema.selectedNodes.nodeId,
      isArticle: schema.selectedNodes.isArticle,
    })
    .from(schema.selectedNodes)
    .where(and(eq(schema.selectedNodes.basketId, sql.placeholder("basketId")), eq(schema.selectedNodes.status, "held")))
    .orderBy(asc(schema.selectedNodes.id))
    .prepare(),
);

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
  const hasRoom = limits.every((limit) => {
    const wanted = moves.get(limit.id) ?? { used: 0, testingUsed: 0 };
    return limit.used + wanted.used <= limit.maximum && limit.testingUsed + wanted.testingUsed <= limit.maximum;
  });
  if (limits.length !== moves.size || !hasRoom) return false;
  const { used, testingUsed, maximum } = schema.nodeLimits;
  for (const [limitId, wanted] of moves) {
    const moved = yield* run(
      tx
        .update(schema.nodeLimits)
        .set({ used: sql`${used} + ${wanted.used}`, testingUsed: sql`${testingUsed} + ${wanted.testingUsed}` })
        .where(
          and(
            eq(schema.nodeLimits.id, limitId),
            sql`${used} + ${wanted.used} <= ${maximum}`,
            sql`${testingUsed} + ${wanted.testingUsed} <= ${maximum}`,
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
 * what they become: `released`, `expired` when their reservation time ran out, or `refunded` by a refund.
 */
export function* releaseSelectedNodes(
  tx: Tx,
  selectedNodeIds: number[],
  status: Exclude<SelectedNodeStatus, "held"> = "released",
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
  // The basket still `new` and the article still held in it: the guard of the hold's renewal and of the release.
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
      sql: `update baskets set expires_at = ?, updated_at = ? where id = ? and ${guard.sql} returning status`,
      args: [holdUntil(event, now), now.toISOString(), basket.id, ...guard.args],
    },
    // Read before the release: only a refused one needs it, to tell 409 from 404.
    { sql: "select status from baskets where id = ? and changes() = 0", args: [basket.id] },
    ...releaseStatements(
      { sql: "select id from selected_nodes where id = ? or parent_id = ?", args: [line.id, line.id] },
      "released",
      guard,
    ),
  ]);
  if (!renewed?.length) throw refused?.[0]?.status === "new" ? notFound() : conflict("errors.basket_not_modifiable");
  return rowOf(schema.selectedNodes, row?.[0] ?? {});
}

/**
 * Gives back the stock held by `new` baskets whose reservation time is over (every basket, or the one named), its
 * lines marked `expired`: the 30 s sweep, and a basket read by its buyer after its time (not a sweep later).
 * Returns how many lines were released.
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
  if (!(await expiredLines().limit(1).get())) return 0;
  const { sql: selectExpired, params } = expiredLines().toSQL();
  const expired: Statement = { sql: selectExpired, args: params as Statement["args"] };
  const [, released] = await database.batch(releaseStatements(expired, "expired"));
  return released?.length ?? 0;
}

export type BasketContent = { items: ReturnType<typeof shapeItems>; total: number };

const linesOfBaskets = prepared((db) =>
  db
    .select()
    .from(schema.selectedNodes)
    .where(and(inList(schema.selectedNodes.basketId, "basketIds"), inList(schema.selectedNodes.status, "statuses")))
    .orderBy(asc(schema.selectedNodes.id))
    .prepare(),
);

/**
 * The lines of baskets in each of `statuses`, read with one query: per status, per basket (every basket named has
 * an entry), articles with their options; totals are derived.
 */
export async function basketItemsIn(db: Db, basketIds: number[], statuses: SelectedNodeStatus[]) {
  const result = new Map<SelectedNodeStatus, Map<number, BasketContent>>();
  const rows = basketIds.length
    ? await linesOfBaskets(db).all({ basketIds: jsonList(basketIds), statuses: jsonList(statuses) })
    : [];
  const grouped = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.status} ${row.basketId}`;
    const own = grouped.get(key);
    if (own) own.push(row);
    else grouped.set(key, [row]);
  }
  for (const status of statuses) {
    const perBasket = new Map<number, BasketContent>();
    for (const basketId of basketIds) {
      const own = grouped.get(`${status} ${basketId}`) ?? [];
      perBasket.set(basketId, { items: shapeItems(own), total: own.reduce((sum, r) => sum + r.price, 0) });
    }
    result.set(status, perBasket);
  }
  return result;
}

/** The held lines of baskets (or those in another `status`): articles with their options; totals are derived. */
export async function basketItems(db: Db, basketIds: number[], status: SelectedNodeStatus = "held") {
  return (await basketItemsIn(db, basketIds, [status])).get(status) as Map<number, BasketContent>;
}

function shapeItems(rows: (typeof schema.selectedNodes.$inferSelect)[]) {
  return rows
    .filter((r) => r.isArticle)
    .map((article) => {
      const options = rows.filter((r) => r.parentId === article.id);
      return {
        id: article.id,
        nodeId: article.nodeId,
        title: article.title,
        price: article.price + options.reduce((sum, o) => sum + o.price, 0),
        articlePrice: article.price,
        options: options.map((o) => ({ id: o.id, nodeId: o.nodeId, title: o.title, price: o.price })),
      };
    });
}

const heldTotal = prepared((db) =>
  db
    .select({ total: sql<number | null>`sum(${schema.selectedNodes.price})` })
    .from(schema.selectedNodes)
    .where(and(eq(schema.selectedNodes.basketId, sql.placeholder("basketId")), eq(schema.selectedNodes.status, "held")))
    .prepare(),
);

export async function basketTotal(db: Db, basketId: number): Promise<number> {
  const row = await heldTotal(db).get({ basketId });
  return Number(row?.total ?? 0);
}

/**
 * Applying or removing a promotion code changes what the basket's lines cost: they are priced again for the
 * visitor as they now are (the server decides prices, DESIGN.md 4). Only a `new` basket changes.
 */
export async function repriceBasket(database: Database, input: { event: Event; basket: Basket; login: FrontendLogin }) {
  const catalogue = await getCatalogue(database.db, input.event.id);
  const visitor = await visitorOf(database.db, input.login, input.basket);
  await database.transaction(function* (tx) {
    const rows = yield* run(
      tx
        .select()
        .from(schema.selectedNodes)
        .where(and(eq(schema.selectedNodes.basketId, input.basket.id), eq(schema.selectedNodes.status, "held")))
        .all(),
    );
    for (const row of rows) {
      const node = row.nodeId === null ? undefined : catalogue.byId.get(row.nodeId);
      if (!node) continue;
      const price = nodePrice(catalogue, node, visitor);
      if (price !== row.price)
        yield* run(tx.update(schema.selectedNodes).set({ price }).where(eq(schema.selectedNodes.id, row.id)).run());
    }
  });
}
