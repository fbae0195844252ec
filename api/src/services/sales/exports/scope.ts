// What every list's export shares: the request (who asks, the list's query, the language), the events or units its
// filter names (each one the caller may see, or 404, never an empty file), its order and its file's name.
import type { Db } from "@ticketing/db";
import { LANGUAGES, type Language } from "@ticketing/shared/constants";
import en from "@ticketing/shared/i18n/en/export.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/export.json" with { type: "json" };
import { createTranslator, type Translate } from "@ticketing/shared/i18n/translate";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { invalid, notFound } from "../../../lib/errors.ts";
import type { ListQuery } from "../../../lib/list-query.ts";
import { canSeeUnit, type Event, getVisibleEvent, type User } from "../../accounts/access.ts";
import { isPreview } from "../sales.ts";
import { type Keyset, swissMoment } from "./engine.ts";

export interface ExportRequest {
  db: Db;
  user: User;
  /** the list's query: its filter and sort (its range is ignored: every row) */
  query: ListQuery;
  /** the export's texts (shared/src/i18n/*\/export.json) in the caller's language */
  t: Translate;
  /** the day of the request in Switzerland, `YYYY-MM-DD`, for the file's name */
  today: string;
  /** the moment of the request, for filters that depend on it (the events' `activity`) */
  now: Date;
}

const translators = Object.fromEntries(LANGUAGES.map((l) => [l, createTranslator({ en, fr }, l)])) as Record<
  Language,
  Translate
>;

export function exportRequest(db: Db, user: User, query: ListQuery, language: Language, now: Date): ExportRequest {
  const today = swissMoment(now.toISOString())?.text.slice(0, 10) ?? "";
  return { db, user, query, t: translators[language], today, now };
}

/** The ids a list's id filter holds (parseListQuery made them a list, or null for "none"); undefined when absent. */
function idsOf(query: ListQuery, ...keys: string[]): number[] | undefined {
  for (const key of keys) {
    const ids = query.filter[key] as number[] | null | undefined;
    if (ids !== undefined) return ids ?? [];
  }
  return undefined;
}

/**
 * The events an `event_id` (or `event`) filter names, when it names some: each must be one the user may see (404
 * otherwise, as the event's own page answers, rather than an empty file).
 */
export async function filteredEvents({ db, user, query }: ExportRequest): Promise<Event[] | undefined> {
  const ids = idsOf(query, "eventId", "event");
  if (ids === undefined) return undefined;
  const events: Event[] = [];
  for (const id of ids) events.push(await getVisibleEvent(db, user, id));
  return events;
}

/** The one event a per-event export (participants, stocks) is of: 400 without an event filter naming one. */
export async function requiredEvent(request: ExportRequest): Promise<Event> {
  const events = await filteredEvents(request);
  const [event] = events ?? [];
  if (!event || events?.length !== 1)
    throw invalid("errors.event_filter_required", { event: "errors.event_filter_required" });
  return event;
}

/** A `unit_id` (or `unit`) filter's units, each one the user belongs to (404 otherwise). */
export async function checkFilteredUnits({ db, user, query }: ExportRequest, ...keys: string[]): Promise<number[]> {
  const ids = idsOf(query, ...keys) ?? [];
  for (const id of ids) if (!(await canSeeUnit(db, user, id))) throw notFound();
  return ids;
}

/** The list's order (`columns` maps its sortable fields), ties by id, for reading in batches. */
export function keysetOf(query: ListQuery, columns: Record<string, SQLiteColumn>, id: SQLiteColumn): Keyset {
  return { column: columns[query.sort.field] ?? id, id, order: query.sort.order };
}

/** `baskets-summer-fest-preview-2026-11-24`: the list, the event's path when there is one, testing, the day. */
export function fileNameOf(request: ExportRequest, list: string, events?: Event[]): string {
  const [event] = events ?? [];
  return [
    list,
    events?.length === 1 && event ? event.frontendPath : null,
    isPreview(request.query.filter) ? "preview" : null,
    request.today,
  ]
    .filter((part): part is string => Boolean(part))
    .join("-")
    .replace(/[^-_0-9A-Za-z]/g, "_");
}
