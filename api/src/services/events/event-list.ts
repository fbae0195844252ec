// The back office's events list: its sortable columns and its filters (activity, unit, id), as of a given instant.
import { and, type Db, eq, gte, inArray, isNull, like, lt, lte, or, schema } from "@ticketing/db";
import type { EventActivity } from "@ticketing/shared/constants";
import { EventListFilter } from "@ticketing/shared/schemas/events";
import type { SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { parseWith } from "../../lib/http.ts";
import { idFilter, type ListOptions, type ListQuery, listPage } from "../../lib/list-query.ts";
import { inVisibleUnits, type User } from "../accounts/access.ts";
import { presentEvents } from "./events.ts";

/** The columns the events list (and its export) can be ordered by. */
export const EVENT_COLUMNS = {
  id: schema.events.id,
  name: schema.events.name,
  frontendTitle: schema.events.frontendTitle,
  frontendPath: schema.events.frontendPath,
  status: schema.events.status,
  startDate: schema.events.startDate,
  endDate: schema.events.endDate,
} as const;
export const EVENT_SORT_FIELDS = Object.keys(EVENT_COLUMNS);
/** The back office's event list: sortable fields, and the id filters (`id`, `unit_id`). */
export const EVENT_LIST: ListOptions = { sortable: EVENT_SORT_FIELDS, idFilters: ["id", "unitId"] };

/** Now within a window whose empty bounds are open (ISO 8601 UTC strings compare as instants). */
const withinWindow = (start: SQLiteColumn, end: SQLiteColumn, now: string) =>
  and(or(isNull(start), lte(start, now)), or(isNull(end), gte(end, now)));

/** The condition of an `activity` filter (EVENT_ACTIVITIES says what each means) at `now`. */
function activityCondition(activity: EventActivity, now: Date): SQL | undefined {
  const at = now.toISOString();
  const { events } = schema;
  switch (activity) {
    case "active":
      return and(inArray(events.status, ["draft", "public"]), gte(events.endDate, at));
    case "inactive":
      return or(inArray(events.status, ["closed", "archived"]), lt(events.endDate, at));
    case "registrations":
      return and(
        eq(events.status, "public"),
        withinWindow(events.registrationsStartDate, events.registrationsEndDate, at),
      );
    case "payments":
      return and(eq(events.status, "public"), withinWindow(events.paymentsStartDate, events.paymentsEndDate, at));
  }
}

/**
 * Which events the list (or its export) shows at `now`: those of the user's units, filtered by unit, id, name,
 * status, moderation status and activity; a filter value outside EventListFilter is a 400.
 */
export async function eventsWhere(db: Db, user: User, query: ListQuery, now: Date): Promise<SQL | undefined> {
  const f = parseWith(EventListFilter, query.filter);
  const q = f.q?.trim();
  return and(
    await inVisibleUnits(db, user, schema.events.unitId),
    idFilter(query, "unitId", schema.events.unitId),
    f.status ? eq(schema.events.status, f.status) : undefined,
    f.moderationStatus ? eq(schema.events.moderationStatus, f.moderationStatus) : undefined,
    f.activity ? activityCondition(f.activity, now) : undefined,
    idFilter(query, "id", schema.events.id),
    q ? like(schema.events.name, `%${q}%`) : undefined,
  );
}

export async function listEvents(db: Db, user: User, query: ListQuery, now: Date) {
  return listPage(db, schema.events, await eventsWhere(db, user, query, now), query, EVENT_COLUMNS);
}

// --- The event calls, as the API receives them ----------------------------------------------------------------

/** The back office's list of the events of the caller's units (every event for a superuser), filtered as of `now`. */
export async function listVisibleEvents(db: Db, user: User, query: ListQuery, publicUrl: string, now: Date) {
  const { rows, total } = await listEvents(db, user, query, now);
  return { rows: await presentEvents(db, rows, publicUrl), total };
}
