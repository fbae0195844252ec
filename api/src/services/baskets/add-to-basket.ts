// The add-to-basket path, top to bottom (README.md): the caller's basket, what they chose checked and priced against
// the catalogue, the basket's held lines, then the write as one guarded batch (docs/decisions/0020, 0026).
import { and, asc, type Database, eq, prepared, rowOf, type Statement, schema, sql } from "@ticketing/db";
import { GROUP_CATEGORIES } from "@ticketing/shared/constants";
import { GROUP_ERROR_MESSAGES, type SelectionNode, selectionErrors } from "@ticketing/shared/groups";
import { conflict, invalid, notFound } from "../../lib/errors.ts";
import type { Event } from "../accounts/access.ts";
import {
  type CatalogueNode,
  getCatalogue,
  isVisible,
  nodePrice,
  optionsOf,
  selectionTree,
} from "../catalogue/catalogue.ts";
import { shapeItems, visitorOf } from "./basket-content.ts";
import { assertBasketActionsAllowed, holdUntil } from "./holds.ts";

type Basket = typeof schema.baskets.$inferSelect;
type FrontendLogin = typeof schema.frontendLogins.$inferSelect;

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
