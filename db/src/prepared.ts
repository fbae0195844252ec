// Queries built and compiled once, then run with placeholder values (`sql.placeholder("id")`): the hot paths (an
// add to a basket, the reads every ticket-office request makes) no longer pay Drizzle's query building, which
// was the top of their CPU profile.
import type { Db } from "./client.ts";

/**
 * `prepared((db) => db.select()…where(eq(t.id, sql.placeholder("id"))).prepare())` answers a function giving that
 * query for a handle, built on the first call for each connection. On better-sqlite3 a transaction runs on its
 * database's connection (one Drizzle session), so the query prepared there serves inside transactions too; a
 * libSQL transaction has a connection (session) of its own, and the query is built once for it.
 * Build queries that select fields (a select, a `returning`, an insert or update run for its changes): Drizzle
 * reads selected rows in raw mode, which the statement cache (client.ts) resets for any other user.
 */
export function prepared<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const perSession = new WeakMap<object, Q>();
  return (db) => {
    const session = (db as unknown as { session: object }).session;
    let query = perSession.get(session);
    if (query === undefined) {
      query = build(db);
      perSession.set(session, query);
    }
    return query;
  };
}
