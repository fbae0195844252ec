// Offers from the waiting list (docs/decisions/0038), as statements a write that frees stock runs after it, in the
// same batch or transaction: nothing can run between the stock coming free and it being offered, and a buy page's
// add could not have taken it anyway, since an entry in line keeps its quantity in `node_limits.waiting`.
//
// The statements work on every automatic list at once, by set: an entry is offered when, on every stock its article
// counts in, the stock left (`maximum - used`) covers its quantity plus those of the entries ahead of it in line on
// that stock (a running sum in the order of joining). So an entry never passes one ahead of it that shares a stock,
// however the stock came free; one that cannot be met waits, or, where the organiser allows partial offers, is
// offered what is left. Offered, its quantity moves from `waiting` to `used` (held for it), its mail is queued, and
// its offer lasts the list's offer time.
import { type Db, run, type SQL, type Statement, sql } from "@ticketing/db";
import { offeringSource, webhookStatement } from "../../lib/webhook-outbox.ts";

/** The testing or real counter of `l` (a node_limits row) for the entry `e`. */
const used = "case when e.testing = 1 then l.testing_used else l.used end";

/** The first entry in line on the stock `limit` (testing or not) after the entry `after`, by the stock's index. */
const nextInLine = (limit: string, testing: string, after: string) =>
  `select el.entry_id from waiting_list_entry_limits el join waiting_list_entries e on e.id = el.entry_id
    where el.limit_id = ${limit} and el.entry_id > ${after} and e.state = 'waiting' and e.testing = ${testing}
    order by el.entry_id limit 1`;

/** Real and testing sums of `value` over entries `e`, for a node_limits update by limit. */
const perCounter = (value: string) =>
  `sum(case when e.testing = 0 then ${value} else 0 end) as real_count,
    sum(case when e.testing = 1 then ${value} else 0 end) as testing_count`;

/**
 * Gives back what lapsed offers hold and marks them `expired`. An offer its buyer did not open holds its stock
 * itself: it comes back here. One opened into a basket is held by the basket's lines, which the sweep of expired
 * holds gives back (the basket's hold ends with the offer); a basket being paid or paid keeps its offer.
 */
export function lapsedOfferStatements(now: string): Statement[] {
  const lapsed = `e.state = 'offered' and e.offer_expires_at < ?`;
  return [
    {
      sql: `update node_limits set used = used - m.real_count, testing_used = testing_used - m.testing_count
        from (select el.limit_id as id, ${perCounter("e.offered_quantity")}
          from waiting_list_entries e join waiting_list_entry_limits el on el.entry_id = e.id
          where ${lapsed} and e.basket_id is null group by el.limit_id) m
        where node_limits.id = m.id`,
      args: [now],
    },
    {
      sql: `update waiting_list_entries set state = 'expired', updated_at = ?
        where id in (select e.id from waiting_list_entries e where ${lapsed} and (e.basket_id is null
          or exists (select 1 from baskets b where b.id = e.basket_id and b.status = 'new')))`,
      args: [now, now],
    },
  ];
}

/**
 * Moves the entries marked `offering` to `offered`: their offered quantity from `waiting` to `used` on each of their
 * stocks, their mail queued, their offer's end set from their list's offer time. Shared by the automatic offers and
 * the organiser's offer by hand.
 */
export function offeringStatements(now: string): Statement[] {
  return [
    {
      sql: `update node_limits set used = used + m.real_offered, testing_used = testing_used + m.testing_offered,
          waiting = waiting - m.real_count, testing_waiting = testing_waiting - m.testing_count
        from (select el.limit_id as id, ${perCounter("e.quantity")},
            sum(case when e.testing = 0 then e.offered_quantity else 0 end) as real_offered,
            sum(case when e.testing = 1 then e.offered_quantity else 0 end) as testing_offered
          from waiting_list_entries e join waiting_list_entry_limits el on el.entry_id = e.id
          where e.state = 'offering' group by el.limit_id) m
        where node_limits.id = m.id`,
      args: [],
    },
    {
      sql: `insert into mail_outbox (kind, "to", language, payload)
        select 'waiting_list_offer', e.email, e.language, json_object('entry_id', e.id)
        from waiting_list_entries e where e.state = 'offering' order by e.id`,
      args: [],
    },
    // The units' webhooks hear of each offer (ADR 0045), in the same write.
    webhookStatement("waiting_list.offer", offeringSource(now), new Date(now)),
    {
      sql: `update waiting_list_entries set state = 'offered', offered_at = ?, updated_at = ?,
          offer_expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || (select wl.offer_minutes from waiting_lists wl
            where wl.event_id = waiting_list_entries.event_id) || ' minutes')
        where state = 'offering' returning id`,
      args: [now, now, now],
    },
  ];
}

/**
 * The offers a write that frees stock makes at its end: lapsed offers given back first, then every entry of an
 * automatic list that the stock left now covers, in line (see the file's head). The last statement answers the ids
 * of the entries offered.
 */
export function offerStatements(now: string): Statement[] {
  return [
    ...lapsedOfferStatements(now),
    {
      // Only stocks with entries in line and room now (`roomy`, one row per counter) are looked at, and on each only
      // the first `room` entries in line (`reach`: each asks for at least one): a write that frees nothing an entry
      // waits for reads no entry, and one that frees a few reads a few, however long the line.
      sql: `with recursive roomy as materialized (
          select l.id, 0 as testing, l.maximum - l.used as room from node_limits l
            where l.waiting > 0 and l.used < l.maximum
          union all
          select l.id, 1, l.maximum - l.testing_used from node_limits l
            where l.testing_waiting > 0 and l.testing_used < l.maximum),
        reach (id, testing, room, entry, k) as (
          select r.id, r.testing, r.room, (${nextInLine("r.id", "r.testing", "0")}), 1 from roomy r
          union all
          select x.id, x.testing, x.room, (${nextInLine("x.id", "x.testing", "x.entry")}), x.k + 1 from reach x
            where x.k < x.room and x.entry is not null),
        last as materialized (select id, testing, room, max(entry) as entry from reach group by id, testing),
        w as (
          select e.id, e.quantity, r.room
            - (sum(e.quantity) over (partition by r.id, r.testing order by e.id rows unbounded preceding)
              - e.quantity) as room
          from last r
          cross join waiting_list_entry_limits el on el.limit_id = r.id and el.entry_id <= r.entry
          cross join waiting_list_entries e on e.id = el.entry_id and e.state = 'waiting' and e.testing = r.testing
          cross join waiting_lists wl on wl.event_id = e.event_id and wl.automatic = 1),
        fit as (select id, quantity, min(room) as room, count(*) as stocks from w group by id)
        update waiting_list_entries set state = 'offering', offered_quantity = min(fit.quantity, fit.room)
        from fit
        where waiting_list_entries.id = fit.id
          and fit.stocks = (select count(*) from waiting_list_entry_limits el where el.entry_id = fit.id)
          and (fit.room >= fit.quantity or (fit.room > 0 and
            (select wl.partial_offers from waiting_lists wl where wl.event_id = waiting_list_entries.event_id) = 1))`,
      args: [],
    },
    ...offeringStatements(now),
  ];
}

/**
 * Whether the sweep has anything to offer or give back: an offer that lapsed, or an entry of an automatic list in
 * line whose every stock has room for it (a quick read, before taking the write lock; the batch decides in order).
 */
export const offersDue = (now: string): Statement => ({
  sql: `select 1 as due from waiting_list_entries e where (e.state = 'offered' and e.offer_expires_at < ?)
    or (e.state = 'waiting'
      and exists (select 1 from waiting_lists wl where wl.event_id = e.event_id and wl.automatic = 1)
      and not exists (select 1 from waiting_list_entry_limits el join node_limits l on l.id = el.limit_id
        where el.entry_id = e.id and ${used} >= l.maximum))
    limit 1`,
  args: [now],
});

/** A statement (`?` placeholders, none inside literals) as Drizzle's SQL, to run in a transaction body or a read. */
export function statementSql(statement: Statement): SQL {
  const parts = statement.sql.split("?");
  return sql.join(
    parts.flatMap((part, index) =>
      index < statement.args.length ? [sql.raw(part), sql`${statement.args[index]}`] : [sql.raw(part)],
    ),
  );
}

/** Runs statements one after another inside a transaction body; answers the rows of those that answer any. */
export function* runStatements(tx: Db, statements: Statement[]): Generator<unknown, unknown[][], unknown> {
  const answers: unknown[][] = [];
  for (const statement of statements) {
    const query = statementSql(statement);
    if (/^\s*select\b|\breturning\b/i.test(statement.sql)) answers.push((yield* run(tx.all(query))) as unknown[]);
    else {
      yield* run(tx.run(query));
      answers.push([]);
    }
  }
  return answers;
}

/**
 * Takes an entry out of line (`left`: its buyer left or declined; `removed`: by the organiser), in one batch: what
 * it asked for leaves `waiting`, or, offered and not opened yet, the stock its offer held comes back; then what that
 * frees is offered on (an offer opened into a basket stays with the basket, whose lines hold it). The state's
 * statement answers the entry when it was closed: none when it was not waiting or offered.
 */
export function closeEntryStatements(entryId: number, state: "left" | "removed", now: string): Statement[] {
  const open = `e.id = ? and (e.state = 'waiting' or (e.state = 'offered' and e.basket_id is null))`;
  return [
    {
      sql: `update node_limits
        set waiting = waiting - m.real_waiting, testing_waiting = testing_waiting - m.testing_asked,
          used = used - m.real_count, testing_used = testing_used - m.testing_count
        from (select el.limit_id as id,
            sum(case when e.state = 'waiting' and e.testing = 0 then e.quantity else 0 end) as real_waiting,
            sum(case when e.state = 'waiting' and e.testing = 1 then e.quantity else 0 end) as testing_asked,
            ${perCounter("case when e.state = 'offered' then e.offered_quantity else 0 end")}
          from waiting_list_entries e join waiting_list_entry_limits el on el.entry_id = e.id
          where ${open} group by el.limit_id) m
        where node_limits.id = m.id`,
      args: [entryId],
    },
    {
      sql: `update waiting_list_entries set state = ?, updated_at = ?
        where id in (select e.id from waiting_list_entries e where ${open}) returning *`,
      args: [state, now, entryId],
    },
    ...offerStatements(now),
  ];
}

/**
 * The organiser's offer by hand, out of line: the entry, waiting, is offered if every stock of its article has room
 * for its quantity (or, with partial offers, for some of it), in one batch. The `offering` statement answers the
 * entry when it was offered; nothing when it was not waiting or the stock had no room.
 */
export function handOfferStatements(entryId: number, now: string): Statement[] {
  return [
    ...lapsedOfferStatements(now),
    {
      sql: `with r as (select e.id, e.quantity, coalesce(min(l.maximum - ${used}), e.quantity) as room
          from waiting_list_entries e
          left join waiting_list_entry_limits el on el.entry_id = e.id
          left join node_limits l on l.id = el.limit_id
          where e.id = ? and e.state = 'waiting' group by e.id)
        update waiting_list_entries set state = 'offering', offered_quantity = min(r.quantity, r.room)
        from r
        where waiting_list_entries.id = r.id and (r.room >= r.quantity or (r.room > 0 and
          (select wl.partial_offers from waiting_lists wl where wl.event_id = waiting_list_entries.event_id) = 1))
        returning waiting_list_entries.id`,
      args: [entryId],
    },
    ...offeringStatements(now),
  ];
}
