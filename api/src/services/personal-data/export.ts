// The export of a buyer's personal data (docs/decisions/0046): what `holdings.ts` finds, as JSON (per event and per
// kind, with every row) or as one csv of a line per stored value. And the record of past erasures.
import { type Db, eq, inArray, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import type { PersonalData, PersonalDataErasure } from "@ticketing/shared/schemas/personal-data";
import type { Log } from "../../lib/log.ts";
import type { User } from "../accounts/access.ts";
import { exportFile } from "../sales/exports/engine.ts";
import { coverageOf } from "./coverage.ts";
import { emailHash } from "./erasure.ts";
import { countsOf, findHoldings } from "./holdings.ts";

/** Everything held about `email` in the events `user` covers (`unitId`: one unit of theirs). */
export async function personalDataOf(
  db: Db,
  user: User,
  input: { email: string; unitId?: number },
  now: Date,
): Promise<PersonalData> {
  const coverage = await coverageOf(db, user, input.unitId);
  const holdings = await findHoldings(db, input.email, coverage);
  const { events, units } = schema;
  const rows = holdings.eventIds.length
    ? await db
        .select({ id: events.id, name: events.name, unitId: units.id, unitName: units.name })
        .from(events)
        .innerJoin(units, eq(units.id, events.unitId))
        .where(inArray(events.id, holdings.eventIds))
        .all()
    : [];
  const perEvent = rows
    .map((event) => {
      const counts: Record<string, number> = {};
      for (const record of holdings.records)
        if (record.eventId === event.id) counts[record.kind] = (counts[record.kind] ?? 0) + 1;
      return { ...event, counts };
    })
    .sort((a, b) => a.id - b.id);
  return {
    email: input.email,
    generatedAt: now.toISOString(),
    unitIds: coverage.unitIds,
    unitNames: coverage.unitNames,
    events: perEvent,
    counts: countsOf(holdings),
    found: holdings.records.length > 0,
    records: holdings.records,
  };
}

/** The export as a csv: a line per stored value (kind, row, event, field, value), UTF-8 with a BOM. */
export function personalDataCsv(data: PersonalData, language: Language, logger?: Log) {
  const header =
    language === "fr" ? ["type", "ligne", "événement", "champ", "valeur"] : ["kind", "row", "event", "field", "value"];
  const lines = data.records.flatMap((record) =>
    Object.entries(record.fields).map(([field, value]) => [
      record.kind,
      String(record.id),
      record.eventId ?? "",
      field,
      value === null ? "" : String(value),
    ]),
  );
  return exportFile(
    {
      fileName: "personal-data",
      sheetName: "personal-data",
      columns: header.map((name, index) => ({ header: name, kind: index === 2 ? "integer" : "text" })),
      rows: (async function* () {
        yield lines;
      })(),
    },
    "csv",
    logger,
  );
}

/** The erasures `user` may see (every one for a superuser; those over units they own), newest first. */
export async function listErasures(
  db: Db,
  user: User,
  query: { email?: string; unitId?: number },
): Promise<PersonalDataErasure[]> {
  const { email } = query;
  const coverage = await coverageOf(db, user, query.unitId);
  const owned = coverage.unitIds;
  const ownedEvents = coverage.eventIds ?? [];
  const { personalDataErasures: erasures, users, units } = schema;
  const rows = await db.select().from(erasures).all();
  const visible = rows
    // An erasure over the whole instance shows to the owners of the events it changed.
    .filter(
      (row) =>
        owned === null ||
        (row.unitIds === null
          ? row.eventIds.some((id) => ownedEvents.includes(id))
          : row.unitIds.some((id) => owned.includes(id))),
    )
    .filter((row) => email === undefined || emailHash(row.emailSalt, email) === row.emailHash)
    .sort((a, b) => b.id - a.id);
  const staffIds = [...new Set(visible.flatMap((row) => (row.erasedById === null ? [] : [row.erasedById])))];
  const staff = new Map(
    staffIds.length
      ? (
          await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, staffIds)).all()
        ).map((row) => [row.id, row.email])
      : [],
  );
  const unitIds = [...new Set(visible.flatMap((row) => row.unitIds ?? []))];
  const names = new Map(
    unitIds.length
      ? (await db.select({ id: units.id, name: units.name }).from(units).where(inArray(units.id, unitIds)).all()).map(
          (row) => [row.id, row.name],
        )
      : [],
  );
  return visible.map((row) => ({
    id: row.id,
    createdAt: row.createdAt,
    erasedById: row.erasedById,
    erasedByEmail: row.erasedById === null ? null : (staff.get(row.erasedById) ?? null),
    unitIds: row.unitIds,
    unitNames: (row.unitIds ?? []).map((id) => names.get(id) ?? String(id)),
    eventIds: row.eventIds,
    counts: row.counts,
  }));
}
