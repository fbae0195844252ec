// Everything the product holds about one buyer's email in the events a caller covers (docs/decisions/0046): the
// rows of each table that hold it, found from the email (billing information, ticket-office logins, waiting-list
// entries, mails) and from what those rows own (baskets, their lines, answers, invoices, check-ins, sessions,
// uploads). The export lists them; the erasure changes them.
import { type Db, eq, inArray, or, schema, sql } from "@ticketing/db";
import type { PersonalDataKind, PersonalDataRecord } from "@ticketing/shared/schemas/personal-data";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Coverage, covers } from "./coverage.ts";

/** The rows held, by kind (ids; the rate-limit counters by key), and each as the export lists it. */
export interface Holdings {
  ids: Record<PersonalDataKind, (number | string)[]>;
  records: PersonalDataRecord[];
  /** The ids of the events whose rows are held. */
  eventIds: number[];
}

/** Columns never exported: hashes of secrets, and an image's bytes (its size is). */
const SECRET = new Set(["tokenHash", "validationTokenHash", "bytes"]);

type Value = string | number | boolean | null;
function fieldsOf(row: Record<string, unknown>): Record<string, Value> {
  const fields: Record<string, Value> = {};
  for (const [key, value] of Object.entries(row)) {
    if (SECRET.has(key)) continue;
    if (value === null || value === undefined) fields[key] = null;
    else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = value;
    else fields[key] = JSON.stringify(value);
  }
  return fields;
}

const mailLoginId = (payload: Record<string, unknown>) => {
  const link = typeof payload.link === "string" ? payload.link : "";
  const found = /\/login\/verify\/(\d+)\//.exec(link);
  return found ? Number(found[1]) : null;
};

/** The rows holding `email` (trimmed, lower-cased) or owned by those that do, in the events `coverage` covers. */
export async function findHoldings(db: Db, email: string, coverage: Coverage): Promise<Holdings> {
  const s = schema;
  const records: PersonalDataRecord[] = [];
  const ids = {} as Holdings["ids"];
  const events = new Set<number>();
  const add = (kind: PersonalDataKind, id: number | string, eventId: number | null, row: Record<string, unknown>) => {
    ids[kind] ??= [];
    ids[kind].push(id);
    if (eventId !== null) events.add(eventId);
    records.push({ kind, id, eventId, fields: fieldsOf(row) });
  };
  const sameEmail = (column: SQLiteColumn) => sql`lower(trim(${column})) = ${email}`;

  // Ticket-office logins with the email; the logins that made the buyer's baskets join them below.
  const logins = (await db.select().from(s.frontendLogins).where(sameEmail(s.frontendLogins.email)).all()).filter(
    (login) => covers(coverage, login.eventId),
  );
  const loginIds = new Set(logins.map((login) => login.id));

  // Baskets: billed to the email, or made by one of its logins.
  const billed = await db
    .select({ billing: s.billingInformation, basket: s.baskets, loginEventId: s.frontendLogins.eventId })
    .from(s.billingInformation)
    .leftJoin(s.baskets, eq(s.baskets.billingInformationId, s.billingInformation.id))
    .leftJoin(s.frontendLogins, eq(s.frontendLogins.id, s.billingInformation.createdById))
    .where(sameEmail(s.billingInformation.email))
    .all();
  const made = loginIds.size
    ? await db
        .select()
        .from(s.baskets)
        .where(inArray(s.baskets.createdById, [...loginIds]))
        .all()
    : [];
  const baskets = new Map<number, typeof s.baskets.$inferSelect>();
  const billingEvent = new Map<number, number | null>();
  for (const row of billed) {
    const eventId = row.basket?.eventId ?? row.loginEventId ?? null;
    if (!covers(coverage, eventId)) continue;
    if (!billingEvent.has(row.billing.id) || eventId !== null) billingEvent.set(row.billing.id, eventId);
    if (row.basket) baskets.set(row.basket.id, row.basket);
  }
  for (const basket of made) if (covers(coverage, basket.eventId)) baskets.set(basket.id, basket);
  const basketIds = [...baskets.keys()].sort((a, b) => a - b);

  // The billing information of those baskets too (the buyer typed it), and the logins that made them.
  const otherBilling = [...baskets.values()].flatMap((basket) =>
    basket.billingInformationId !== null && !billingEvent.has(basket.billingInformationId)
      ? [[basket.billingInformationId, basket.eventId] as const]
      : [],
  );
  for (const [id, eventId] of otherBilling) billingEvent.set(id, eventId);
  const billingRows = billingEvent.size
    ? await db
        .select()
        .from(s.billingInformation)
        .where(inArray(s.billingInformation.id, [...billingEvent.keys()]))
        .all()
    : [];
  const creatorIds = [...baskets.values()].map((basket) => basket.createdById).filter((id) => !loginIds.has(id));
  if (creatorIds.length)
    logins.push(...(await db.select().from(s.frontendLogins).where(inArray(s.frontendLogins.id, creatorIds)).all()));
  for (const login of logins) loginIds.add(login.id);
  const loginEvent = new Map(logins.map((login) => [login.id, login.eventId]));

  for (const login of logins) add("login", login.id, login.eventId, login);
  for (const billing of billingRows)
    add("billing_information", billing.id, billingEvent.get(billing.id) ?? null, billing);
  for (const id of basketIds) {
    const basket = baskets.get(id) as typeof s.baskets.$inferSelect;
    add("basket", id, basket.eventId, basket);
  }

  // What the baskets hold: lines, form answers, invoices and their lines and payments, check-ins.
  const eventOfBasket = (id: number) => baskets.get(id)?.eventId ?? null;
  const lines = basketIds.length
    ? await db.select().from(s.selectedNodes).where(inArray(s.selectedNodes.basketId, basketIds)).all()
    : [];
  const lineEvent = new Map(lines.map((line) => [line.id, eventOfBasket(line.basketId)]));
  for (const line of lines) add("basket_line", line.id, eventOfBasket(line.basketId), line);
  const lineIds = lines.map((line) => line.id);
  if (lineIds.length) {
    const answers = await db
      .select({ answer: s.selectedNodeExtraInfos, lineId: s.selectedNodeExtraInfoGroups.selectedNodeId })
      .from(s.selectedNodeExtraInfos)
      .innerJoin(
        s.selectedNodeExtraInfoGroups,
        eq(s.selectedNodeExtraInfoGroups.id, s.selectedNodeExtraInfos.selectedGroupId),
      )
      .where(inArray(s.selectedNodeExtraInfoGroups.selectedNodeId, lineIds))
      .all();
    for (const { answer, lineId } of answers)
      add("form_answer", answer.id, lineEvent.get(lineId) ?? null, { ...answer, selectedNodeId: lineId });
    const checkIns = await db.select().from(s.checkIns).where(inArray(s.checkIns.selectedNodeId, lineIds)).all();
    for (const checkIn of checkIns) add("check_in", checkIn.id, lineEvent.get(checkIn.selectedNodeId) ?? null, checkIn);
  }
  const invoices = basketIds.length
    ? await db.select().from(s.invoices).where(inArray(s.invoices.basketId, basketIds)).all()
    : [];
  const invoiceEvent = new Map(invoices.map((invoice) => [invoice.id, eventOfBasket(invoice.basketId)]));
  for (const invoice of invoices) add("invoice", invoice.id, eventOfBasket(invoice.basketId), invoice);
  const invoiceIds = invoices.map((invoice) => invoice.id);
  if (invoiceIds.length) {
    const invoiceLines = await db
      .select()
      .from(s.invoiceLines)
      .where(inArray(s.invoiceLines.invoiceId, invoiceIds))
      .all();
    for (const line of invoiceLines) add("invoice_line", line.id, invoiceEvent.get(line.invoiceId) ?? null, line);
    const payments = await db
      .select()
      .from(s.paymentIntents)
      .where(inArray(s.paymentIntents.invoiceId, invoiceIds))
      .all();
    for (const payment of payments) add("payment", payment.id, invoiceEvent.get(payment.invoiceId) ?? null, payment);
  }

  // Waiting-list entries with the email or of its logins.
  const entries = await db
    .select()
    .from(s.waitingListEntries)
    .where(
      or(
        sameEmail(s.waitingListEntries.email),
        loginIds.size ? inArray(s.waitingListEntries.loginId, [...loginIds]) : undefined,
      ),
    )
    .all();
  const entryEvent = new Map<number, number>();
  for (const entry of entries)
    if (covers(coverage, entry.eventId)) {
      entryEvent.set(entry.id, entry.eventId);
      add("waiting_list_entry", entry.id, entry.eventId, entry);
    }

  // Mails to the email: each belongs to the event of what it is about (a basket, an entry, a login link).
  const mails = await db.select().from(s.mailOutbox).where(sameEmail(s.mailOutbox.to)).all();
  const aboutBaskets = mails.flatMap((mail) =>
    typeof mail.payload.basket_id === "number" ? [mail.payload.basket_id] : [],
  );
  const aboutEntries = mails.flatMap((mail) =>
    typeof mail.payload.entry_id === "number" ? [mail.payload.entry_id] : [],
  );
  const aboutLogins = mails.flatMap((mail) => mailLoginId(mail.payload) ?? []);
  const basketEvents = new Map(
    aboutBaskets.length
      ? (
          await db
            .select({ id: s.baskets.id, eventId: s.baskets.eventId })
            .from(s.baskets)
            .where(inArray(s.baskets.id, aboutBaskets))
            .all()
        ).map((row) => [row.id, row.eventId])
      : [],
  );
  const entryEvents = new Map(
    aboutEntries.length
      ? (
          await db
            .select({ id: s.waitingListEntries.id, eventId: s.waitingListEntries.eventId })
            .from(s.waitingListEntries)
            .where(inArray(s.waitingListEntries.id, aboutEntries))
            .all()
        ).map((row) => [row.id, row.eventId])
      : [],
  );
  const linkEvents = new Map(
    aboutLogins.length
      ? (
          await db
            .select({ id: s.frontendLogins.id, eventId: s.frontendLogins.eventId })
            .from(s.frontendLogins)
            .where(inArray(s.frontendLogins.id, aboutLogins))
            .all()
        ).map((row) => [row.id, row.eventId])
      : [],
  );
  for (const mail of mails) {
    const { basket_id: basketId, entry_id: entryId, event_id: eventId } = mail.payload;
    const loginId = mailLoginId(mail.payload);
    const event =
      (typeof basketId === "number" ? basketEvents.get(basketId) : undefined) ??
      (typeof entryId === "number" ? entryEvents.get(entryId) : undefined) ??
      (typeof eventId === "number" ? eventId : undefined) ??
      (loginId !== null ? linkEvents.get(loginId) : undefined) ??
      null;
    if (covers(coverage, event)) add("mail", mail.id, event, mail);
  }

  // Sessions carrying the logins, and images uploaded by them.
  if (loginIds.size) {
    const list = [...loginIds];
    const sessions = await db
      .select()
      .from(s.refreshTokens)
      .where(
        sql`exists (select 1 from json_each(${s.refreshTokens.frontendLoginIds}) j where j.value in ${sql`(${sql.join(
          list.map((id) => sql`${id}`),
          sql`, `,
        )})`})`,
      )
      .all();
    for (const session of sessions) {
      const first = session.frontendLoginIds.find((id) => loginIds.has(id));
      add("session", session.id, first === undefined ? null : (loginEvent.get(first) ?? null), session);
    }
    const places = await db.select().from(s.waitingRoomPlaces).where(inArray(s.waitingRoomPlaces.loginId, list)).all();
    for (const place of places) add("waiting_room_place", place.id, place.eventId, place);
    const images = await db
      .select()
      .from(s.uploadedImages)
      .where(inArray(s.uploadedImages.frontendLoginId, list))
      .all();
    for (const image of images)
      add("uploaded_image", image.id, image.eventId, { ...image, size: image.bytes?.length ?? null });
  }

  // Rate-limit counters keyed by the email belong to no event: only an erasure over the whole instance has them.
  if (coverage.eventIds === null) {
    const limits = await db
      .select()
      .from(s.rateLimits)
      .where(sql`instr(lower(${s.rateLimits.key}), ${email}) > 0`)
      .all();
    for (const limit of limits) add("rate_limit", limit.key, null, { key: limit.key, points: limit.points });
  }
  for (const kind of Object.keys(ids) as PersonalDataKind[]) ids[kind] = [...new Set(ids[kind])];
  return { ids, records, eventIds: [...events].sort((a, b) => a - b) };
}

/** How many rows of a kind the holdings have. */
export const countsOf = (holdings: Holdings): Record<string, number> =>
  Object.fromEntries(Object.entries(holdings.ids).map(([kind, list]) => [kind, list.length]));

/** Only the ids of a kind that are numbers. */
export const numericIds = (holdings: Holdings, kind: PersonalDataKind) =>
  (holdings.ids[kind] ?? []).filter((id): id is number => typeof id === "number");
