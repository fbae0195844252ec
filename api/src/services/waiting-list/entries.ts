// A buyer's own entries on an event's waiting list (issue 31, docs/decisions/0038): joining the list for a sold-out
// article, reading one's entries with their position, and leaving. The stock moves are offers.ts's: a join counts its
// quantity in `node_limits.waiting` in its own transaction and then runs the offer statements; a leave is
// closeEntryStatements as one batch.
import { and, asc, type Database, type Db, eq, inArray, run, schema, sql } from "@ticketing/db";
import { type Language, LIVE_WAITING_LIST_ENTRY_STATES } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import type { OwnWaitingListEntry, WaitingListJoin } from "@ticketing/shared/schemas/waiting-list";
import { provesEmail } from "@ticketing/shared/ticket-office";
import { conflict, notFound } from "../../lib/errors.ts";
import type { Event } from "../accounts/access.ts";
import { heldByBuyerIn } from "../baskets/buyer-caps.ts";
import { assertBasketActionsAllowed } from "../baskets/holds.ts";
import { chooseArticle } from "../catalogue/article-choice.ts";
import { getCatalogue } from "../catalogue/catalogue.ts";
import { findEvent } from "../events/event-pages.ts";
import { enqueueMail } from "../mail/queue.ts";
import { closeEntryStatements, offerStatements, runStatements } from "./offers.ts";

type Entry = typeof schema.waitingListEntries.$inferSelect;
type Login = typeof schema.frontendLogins.$inferSelect;

/** The event's list, 404 when it has none. */
export async function findWaitingList(db: Db, eventId: number) {
  const list = await db.select().from(schema.waitingLists).where(eq(schema.waitingLists.eventId, eventId)).get();
  if (!list) throw notFound("errors.waiting_list_not_found");
  return list;
}

/**
 * Each entry's position (in a select from `waiting_list_entries`): 1 + the entries still waiting ahead of it on the same
 * event and list; null once not waiting. The buyer's and the organiser's views both read it.
 */
// Named in full: Drizzle leaves a one-table select's columns unqualified, which the subquery's `w` would take.
export const positionOf = sql<number | null>`case when waiting_list_entries.state = 'waiting' then 1 + (
  select count(*) from waiting_list_entries w where w.event_id = waiting_list_entries.event_id
    and w.testing = waiting_list_entries.testing and w.state = 'waiting' and w.id < waiting_list_entries.id)
  end`;

/**
 * Entries with their positions, in order of joining; each title in `language`: an entry keeps its article's English
 * title, its French is the element's own while it exists (docs/decisions/0043).
 */
async function entriesWithPositions(db: Db, where: ReturnType<typeof and>, language: Language) {
  const rows = await db
    .select({ entry: schema.waitingListEntries, position: positionOf, titleFr: schema.nodeConfigurations.titleFr })
    .from(schema.waitingListEntries)
    .leftJoin(schema.nodes, eq(schema.nodes.id, schema.waitingListEntries.nodeId))
    .leftJoin(schema.nodeConfigurations, eq(schema.nodeConfigurations.id, schema.nodes.configurationId))
    .where(where)
    .orderBy(asc(schema.waitingListEntries.id))
    .all();
  return rows.map(({ entry, position, titleFr }) =>
    presentOwnEntry(entry, position === null ? null : Number(position), inLanguage(entry.title, titleFr, language)),
  );
}

export function presentOwnEntry(entry: Entry, position: number | null, title = entry.title): OwnWaitingListEntry {
  return {
    id: entry.id,
    eventId: entry.eventId,
    nodeId: entry.nodeId,
    title,
    quantity: entry.quantity,
    // `offering` lasts inside one write: never seen outside it, but a reader should never be told it.
    state: entry.state === "offering" ? "waiting" : entry.state,
    position,
    offeredQuantity: entry.offeredQuantity,
    offerExpiresAt: entry.offerExpiresAt,
    basketId: entry.basketId,
    createdAt: entry.createdAt,
  };
}

/** One of the caller's entries with its position; 404 for anyone else's (whether it exists is not said). */
async function ownEntry(db: Db, loginIds: number[], entryId: number, language: Language = "en") {
  const [entry] = await entriesWithPositions(
    db,
    and(eq(schema.waitingListEntries.id, entryId), inArray(schema.waitingListEntries.loginId, loginIds)),
    language,
  );
  if (!entry) throw notFound();
  return entry;
}

/** `GET /frontend/waiting-list?event_id=&testing=`: the caller's entries on the event's list, in order of joining. */
export async function listOwnEntries(
  db: Db,
  loginIds: number[],
  query: { eventId: number; testing: boolean },
  language: Language = "en",
): Promise<OwnWaitingListEntry[]> {
  return entriesWithPositions(
    db,
    and(
      eq(schema.waitingListEntries.eventId, query.eventId),
      eq(schema.waitingListEntries.testing, query.testing),
      inArray(schema.waitingListEntries.loginId, loginIds),
    ),
    language,
  );
}

/**
 * The caller's newest login to the event in the mode asked whose email is proved, with that email: 404 without a
 * login, else 409. A preview's login is its staff's (made with their back-office session): their account's email.
 */
async function provedLogin(
  db: Db,
  loginIds: number[],
  event: Event,
  testing: boolean,
): Promise<{ login: Login; email: string }> {
  const logins = await db
    .select()
    .from(schema.frontendLogins)
    .where(
      and(
        inArray(schema.frontendLogins.id, loginIds),
        eq(schema.frontendLogins.eventId, event.id),
        eq(schema.frontendLogins.testing, testing),
      ),
    )
    .all();
  if (logins.length === 0) throw notFound();
  const newestFirst = logins.sort((a, b) => b.id - a.id);
  const proved = newestFirst.find(provesEmail);
  if (proved?.email) return { login: proved, email: proved.email };
  const staff = testing ? newestFirst.find((login) => login.userId !== null) : undefined;
  const user = staff?.userId
    ? await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, staff.userId)).get()
    : undefined;
  if (!staff || !user) throw conflict("errors.waiting_list_email_required");
  return { login: staff, email: user.email };
}

/**
 * `POST /frontend/waiting-list`: puts the signed-in buyer (a proved email) in line for `quantity` of a sold-out
 * article, in one transaction: the entry, its stocks, its quantity counted as waiting on them, its mail, and the
 * offers due (with partial offers, what is left may go to it at once). Answers the entry with its position.
 */
export async function joinWaitingList(
  database: Database,
  input: { loginIds: number[]; body: WaitingListJoin; language: Language; now: Date },
): Promise<OwnWaitingListEntry> {
  const { body, now } = input;
  const event = await findEvent(database.db, body.eventId);
  const list = await findWaitingList(database.db, event.id);
  if (!list.accepting) throw conflict("errors.waiting_list_closed");
  const { login, email } = await provedLogin(database.db, input.loginIds, event, body.testing);
  assertBasketActionsAllowed(event, body.testing, now);
  const catalogue = await getCatalogue(database.db, event.id);
  // The article as the visitor may choose it, without options: one needing options chosen cannot wait in line.
  const { article, lines, lineErrors } = chooseArticle(catalogue, {
    nodeId: body.nodeId,
    optionNodeIds: [],
    visitor: { email, promotionCodes: [] },
    now,
  });
  // The entry keeps the English title (as a basket line does); the buyer is told of it in their language.
  const title = article.configuration.title;
  const shown = inLanguage(title, article.configuration.titleFr, input.language);
  if (lineErrors.length > 0) throw conflict("errors.waiting_list_options_required", { title: shown });
  const limitIds = [...new Set((lines[0]?.limits ?? []).map((limit) => limit.id))];
  const { testing } = body;
  const nowIso = now.toISOString();
  const entryId = await database.transaction(function* (tx) {
    const live = yield* run(
      tx
        .select({ id: schema.waitingListEntries.id })
        .from(schema.waitingListEntries)
        .where(
          and(
            eq(schema.waitingListEntries.eventId, event.id),
            eq(schema.waitingListEntries.testing, testing),
            eq(schema.waitingListEntries.loginId, login.id),
            eq(schema.waitingListEntries.nodeId, article.id),
            inArray(schema.waitingListEntries.state, [...LIVE_WAITING_LIST_ENTRY_STATES]),
          ),
        )
        .get(),
    );
    if (live) throw conflict("errors.waiting_list_already_joined", { title: shown });
    // Sold out for the public: on its tightest stock, what is left after the entries in line is less than asked.
    const limits = limitIds.length
      ? yield* run(tx.select().from(schema.nodeLimits).where(inArray(schema.nodeLimits.id, limitIds)).all())
      : [];
    const remaining = Math.min(
      ...limits.map((l) => l.maximum - (testing ? l.testingUsed + l.testingWaiting : l.used + l.waiting)),
    );
    if (limits.length === 0 || remaining >= body.quantity)
      throw conflict("errors.waiting_list_not_sold_out", { title: shown });
    const max = yield* quantityAllowed(tx, event, login, article.configuration);
    if (body.quantity > max) throw conflict("errors.waiting_list_quantity_above_limit", { max: Math.max(0, max) });
    const entry = yield* run(
      tx
        .insert(schema.waitingListEntries)
        .values({
          eventId: event.id,
          loginId: login.id,
          email,
          language: input.language,
          testing,
          nodeId: article.id,
          title,
          quantity: body.quantity,
          createdAt: nowIso,
        })
        .returning()
        .get(),
    );
    for (const limitId of limitIds)
      yield* run(tx.insert(schema.waitingListEntryLimits).values({ entryId: entry.id, limitId }).run());
    if (limitIds.length)
      yield* run(
        tx
          .update(schema.nodeLimits)
          .set(
            testing
              ? { testingWaiting: sql`${schema.nodeLimits.testingWaiting} + ${body.quantity}` }
              : { waiting: sql`${schema.nodeLimits.waiting} + ${body.quantity}` },
          )
          .where(inArray(schema.nodeLimits.id, limitIds))
          .run(),
      );
    yield* enqueueMail(tx, {
      kind: "waiting_list_joined",
      to: entry.email,
      language: input.language,
      payload: { entry_id: entry.id },
    });
    yield* runStatements(tx, offerStatements(nowIso));
    return entry.id;
  });
  return ownEntry(database.db, [login.id], entryId, input.language);
}

/**
 * How many the buyer may ask for: a basket's most, less nothing; the event's cap per buyer less what they hold or
 * bought and what their other entries ask or hold unopened; the article's cap less what they hold of it.
 */
function* quantityAllowed(
  tx: Db,
  event: Event,
  login: Login,
  configuration: { id: number; maxPerBuyer: number | null },
): Generator<unknown, number, unknown> {
  const caps = [event.maxItemsPerBasket];
  if (event.maxTicketsPerBuyer === null && configuration.maxPerBuyer === null) return Math.min(...caps);
  const held = yield* heldByBuyerIn(tx, login.id);
  if (event.maxTicketsPerBuyer !== null) {
    const asked = yield* run(
      tx
        .select({
          count: sql<number>`coalesce(sum(case when ${schema.waitingListEntries.state} = 'waiting'
            then ${schema.waitingListEntries.quantity} else ${schema.waitingListEntries.offeredQuantity} end), 0)`,
        })
        .from(schema.waitingListEntries)
        .where(
          and(
            eq(schema.waitingListEntries.loginId, login.id),
            inArray(schema.waitingListEntries.state, ["waiting", "offered"]),
            sql`${schema.waitingListEntries.basketId} is null`,
          ),
        )
        .get(),
    );
    caps.push(event.maxTicketsPerBuyer - held.total - Number(asked?.count ?? 0));
  }
  if (configuration.maxPerBuyer !== null)
    caps.push(configuration.maxPerBuyer - (held.perConfiguration.get(configuration.id) ?? 0));
  return Math.min(...caps);
}

/**
 * `DELETE /frontend/waiting-list/:id`: the caller leaves the list (their own entry only, else 404), in one batch:
 * what it asked for leaves `waiting`, or the stock its unopened offer held comes back, and is offered on at once.
 * 409 when it is no longer waiting or offered (an offer opened into a basket stays with the basket).
 */
export async function leaveEntry(
  database: Database,
  input: { loginIds: number[]; entryId: number; now: Date; language?: Language },
): Promise<OwnWaitingListEntry> {
  await ownEntry(database.db, input.loginIds, input.entryId);
  const [, closed] = await database.batch(closeEntryStatements(input.entryId, "left", input.now.toISOString()));
  if (!closed?.length) throw conflict("errors.waiting_list_entry_closed");
  return ownEntry(database.db, input.loginIds, input.entryId, input.language);
}
