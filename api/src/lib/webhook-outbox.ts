// The webhook outbox (docs/decisions/0045-webhooks.md), a leaf every service that changes something may import: a change's deliveries are written by the write that makes
// the change, in its batch or transaction, so a delivery exists if and only if the change committed. Each is one
// `INSERT … SELECT` from the unit's enabled endpoints subscribed to the event type: a unit without endpoints writes
// nothing and costs no extra read, and the statement joins a batch (ADR 0026) as well as a transaction.
//
// The body is made in SQL, from ids, the order's reference, amounts in cents, the event's id and title, and times:
// no buyer's name, email, address or answer is ever put in a delivery.
import { randomBytes } from "node:crypto";
import { type Db, run, type Statement, sql } from "@ticketing/db";
import type { WebhookEventType } from "@ticketing/shared/constants";

/** A new event id (`Webhook-Id`): `msg_` and 16 random bytes in hex. */
export const newMessageId = () => `msg_${randomBytes(16).toString("hex")}`;

/**
 * What an event is about, as a SELECT of one row per event: its unit (`unit_id`), its `data` (a JSON object), and
 * `part`: null when the statement tells one event, else what tells the events of a set apart (appended to the id).
 * `dedupe` (optional): a key a second write of the same change repeats, and then writes nothing.
 */
export interface WebhookSource {
  sql: string;
  args: Statement["args"];
}

/**
 * The statement that queues `type`'s deliveries for the events `source` selects, at `at`: to every enabled
 * endpoint of the event's unit that subscribes to it, all sharing the event's id, due at once (`next_attempt_at`
 * null: whatever clock the writer had).
 */
export function webhookStatement(type: WebhookEventType, source: WebhookSource, at: Date): Statement {
  const time = at.toISOString();
  return {
    sql: `insert into webhook_deliveries (endpoint_id, message_id, event_type, payload, dedupe_key, next_attempt_at,
        created_at)
      select we.id, ? || coalesce('_' || src.part, ''), ?,
        json_object('type', ?, 'timestamp', ?, 'data', json(src.data)), src.dedupe, null, ?
      from (${source.sql}) src join webhook_endpoints we on we.unit_id = src.unit_id and we.enabled = 1
      where exists (select 1 from json_each(we.events) j where j.value = ?)
      on conflict do nothing`,
    args: [newMessageId(), type, type, time, time, ...source.args, type],
  };
}

/** Queues an event's deliveries inside a transaction body: `yield* enqueueWebhook(tx, type, source, now)`. */
export function* enqueueWebhook(
  tx: Db,
  type: WebhookEventType,
  source: WebhookSource,
  at: Date,
): Generator<unknown, void, unknown> {
  const statement = webhookStatement(type, source, at);
  const parts = statement.sql.split("?");
  const query = sql.join(
    parts.flatMap((part, index) =>
      index < statement.args.length ? [sql.raw(part), sql`${statement.args[index]}`] : [sql.raw(part)],
    ),
  );
  yield* run(tx.run(query));
}

const flag = (column: string) => `json(case when ${column} then 'true' else 'false' end)`;

/** An order's fields: `b` a basket, `e` its event. The amount is its last invoice's (0 for a free order). */
const orderFields = `'order_id', b.id, 'reference', b.unikey, 'status', b.status, 'testing', ${flag("b.testing")},
  'amount_cents', coalesce((select i.amount from invoices i where i.basket_id = b.id and i.related_invoice_id is null
    order by i.id desc limit 1), 0),
  'event_id', e.id, 'event_title', e.frontend_title`;

/**
 * `order.paid` / `order.cancelled` of the basket, when `guard` (SQL on `b`, with its args) holds. `dedupe`: a key
 * that makes a second write of the same change write nothing (for a write that cannot tell it is the first).
 */
export function orderSource(
  basketId: number,
  { guard = { sql: "1", args: [] }, dedupe = null }: { guard?: WebhookSource; dedupe?: string | null } = {},
): WebhookSource {
  return {
    sql: `select e.unit_id, json_object(${orderFields}) as data, null as part, ? as dedupe
      from baskets b join events e on e.id = b.event_id where b.id = ? and (${guard.sql})`,
    args: [dedupe, basketId, ...guard.args],
  };
}

/** The key of a basket's `order.paid`: a basket is paid once, however many writes find it paid. */
export const paidKey = (basketId: number) => `order.paid:${basketId}`;

/**
 * `order.refunded`: the refund (a negative invoice) of a basket, once however many writes resolve it;
 * `refunded_cents` is what was paid back.
 */
export function refundSource(refundInvoiceId: number): WebhookSource {
  return {
    sql: `select e.unit_id, json_object(${orderFields}, 'refund_id', r.id, 'refunded_cents', -r.amount) as data,
        null as part, ? as dedupe
      from invoices r join baskets b on b.id = r.basket_id join events e on e.id = b.event_id where r.id = ?`,
    args: [`order.refunded:${refundInvoiceId}`, refundInvoiceId],
  };
}

/** `ticket.checked_in`: the check-in of the line (an article of a sold basket). */
export function checkInSource(lineId: number): WebhookSource {
  return {
    sql: `select e.unit_id, json_object('ticket_id', l.id, 'title', l.title, 'checked_in_at', c.checked_in_at,
        'order_id', b.id, 'reference', b.unikey, 'testing', ${flag("b.testing")}, 'event_id', e.id,
        'event_title', e.frontend_title) as data, null as part, null as dedupe
      from check_ins c join selected_nodes l on l.id = c.selected_node_id join baskets b on b.id = l.basket_id
      join events e on e.id = b.event_id where c.selected_node_id = ?`,
    args: [lineId],
  };
}

/**
 * `waiting_list.offer`: every entry being offered (`state = 'offering'`, the step before `offered`), one event each;
 * its end computed as the offer's update will write it.
 */
export function offeringSource(now: string): WebhookSource {
  return {
    sql: `select e.unit_id, json_object('entry_id', w.id, 'title', w.title, 'quantity', w.offered_quantity,
        'offered_at', ?, 'offer_expires_at', strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || wl.offer_minutes || ' minutes'),
        'testing', ${flag("w.testing")}, 'event_id', e.id, 'event_title', e.frontend_title) as data,
        w.id as part, null as dedupe
      from waiting_list_entries w join waiting_lists wl on wl.event_id = w.event_id join events e on e.id = w.event_id
      where w.state = 'offering'`,
    args: [now, now],
  };
}

/** `event.status_changed`: the event's status now, and the one before. */
export function eventStatusSource(eventId: number, previousStatus: string): WebhookSource {
  return {
    sql: `select e.unit_id, json_object('event_id', e.id, 'event_title', e.frontend_title, 'status', e.status,
        'previous_status', ?) as data, null as part, null as dedupe
      from events e where e.id = ? and e.status != ?`,
    args: [previousStatus, eventId, previousStatus],
  };
}
