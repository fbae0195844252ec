// The add to a basket as one guarded batch of SQL statements (ADR 0026): what add-to-basket.ts decided in
// JavaScript, written only if everything it read still holds when the batch runs.
import type { Statement } from "@ticketing/db";

/**
 * One line an add writes: node, index of its article's line (null for the article), configuration, title, flags,
 * price, French title (docs/decisions/0043).
 */
export type WrittenLine = [number, number | null, number | null, string, number, number, number, string];

/** The ids the next lines get: after every id the table had or has (AUTOINCREMENT's promise, kept by hand). */
const NEXT_BASE = `(select max(coalesce((select seq from sqlite_sequence where name = 'selected_nodes'), 0),
  coalesce((select max(id) from selected_nodes), 0)) as id)`;

/**
 * The add as one batch (ADR 0026). The first statement is the guard: it touches the basket (and starts a hold when
 * the last one ran out) only if the basket is still `new` and the caller's, holds exactly the lines read before (its `held_version`),
 * every stock has room and the buyer's caps allow it (buyer-caps.ts, counted in this same statement); each later
 * write runs only if the statement before it changed as many rows as it must (`changes()`), so a refused guard
 * writes nothing. The SELECT after the guard answers only when it refused: what it saw, to tell the buyer why.
 */
export const addStatements = (
  counter: "used" | "testing_used",
  input: {
    basketId: number;
    ownerId: number;
    /** The caps' condition of the guard and figures of the refused SELECT: both empty without caps. */
    caps: { condition: Statement; figures: Statement };
    /** The basket's `held_version` when its held lines were read. */
    heldVersion: number;
    moves: string;
    limitCount: number;
    lines: WrittenLine[];
    links: [number, number][];
    expiresAt: string;
    updatedAt: string;
  },
): Statement[] => {
  // What waiting-list entries in line ask for is not the buyer's to take (docs/decisions/0038).
  const waiting = counter === "used" ? "waiting" : "testing_waiting";
  const statements: Statement[] = [
    {
      sql: `update baskets set expires_at = case when expires_at < ? then ? else expires_at end, updated_at = ?
        where id = ? and status = 'new' and created_by_id = ? and held_version = ?
        and (select count(*) from node_limits l, json_each(?) m where l.id = json_extract(m.value, '$[0]')
          and l.${counter} + l.${waiting} + json_extract(m.value, '$[1]') <= l.maximum) = ?${input.caps.condition.sql}
        returning id`,
      args: [
        input.updatedAt,
        input.expiresAt,
        input.updatedAt,
        input.basketId,
        input.ownerId,
        input.heldVersion,
        input.moves,
        input.limitCount,
        ...input.caps.condition.args,
      ],
    },
    {
      sql: `select status, held_version as held,
        (select json_group_array(json_array(l.id, l.maximum - l.${counter} - l.${waiting})) from node_limits l
          where l.id in (select json_extract(value, '$[0]') from json_each(?))) as remaining${input.caps.figures.sql}
        from baskets where id = ? and changes() = 0`,
      args: [input.moves, ...input.caps.figures.args, input.basketId],
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
        (id, basket_id, node_id, parent_id, configuration_id, title, is_article, is_subject_to_lausanne_tax, price,
        title_fr)
      select base.id + line.key + 1, ?, json_extract(line.value, '$[0]'),
        base.id + 1 + json_extract(line.value, '$[1]'), json_extract(line.value, '$[2]'),
        json_extract(line.value, '$[3]'), json_extract(line.value, '$[4]'), json_extract(line.value, '$[5]'),
        json_extract(line.value, '$[6]'), json_extract(line.value, '$[7]')
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
