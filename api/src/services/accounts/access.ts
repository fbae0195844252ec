// Who may see what (docs/design.md §4 "Permissions"): one place, used by every back-office route.
import { type Db, eq, inArray, schema } from "@ticketing/db";
import type { ApiTokenScope } from "@ticketing/shared/api-scopes";
import { isEventLocked } from "@ticketing/shared/event-status";
import type { SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { conflict, DomainError, forbidden, notFound, unauthorized } from "../../lib/errors.ts";
import type { AccessClaims } from "../../lib/tokens.ts";

/**
 * A back-office caller: a signed-in user's row, or the principal an API token acts as (`apiToken` set, `principalOfToken`):
 * a member of the token's one unit, never a superuser, recorded as the token's creator.
 */
export type User = typeof schema.users.$inferSelect & { readonly apiToken?: TokenGrant };
export type Event = typeof schema.events.$inferSelect;

/** What an API token grants (services/accounts/api-tokens.ts): its scopes, in its one unit. */
export interface TokenGrant {
  readonly tokenId: number;
  readonly unitId: number;
  readonly scopes: readonly ApiTokenScope[];
}

/**
 * A request's claims; `user` is the row `authenticate` read to check the token, when the token has a user. A request
 * with an API token has no user id and no ticket-office login (every route that is not a back-office one sees an
 * anonymous caller) and carries `tokenPrincipal`, the principal route() gives back-office routes the token's scopes allow.
 */
export type Authenticated = AccessClaims & { user?: User; tokenPrincipal?: User };

/**
 * The principal an API token acts as: its creator's row (what it does is recorded as theirs) that is never a superuser
 * and sees the token's unit only, as a member, whatever units its creator belongs to. Frozen: nothing can make it more.
 */
export function principalOfToken(creator: typeof schema.users.$inferSelect, grant: TokenGrant): User {
  return Object.freeze({
    ...creator,
    isSuperuser: false,
    isActive: true,
    apiToken: Object.freeze({ ...grant, scopes: Object.freeze([...grant.scopes]) }),
  });
}

/** The signed-in, active back-office user, or 401 (the row read when the request was authenticated, if any). */
export async function requireUser(db: Db, auth: Authenticated | null): Promise<User> {
  if (!auth?.userId) throw unauthorized();
  const user = auth.user ?? (await db.select().from(schema.users).where(eq(schema.users.id, auth.userId)).get());
  if (!user?.isActive) throw unauthorized();
  return user;
}

/**
 * The caller of a back-office route (route() in lib/route.ts, the one place that lets an API token in): the signed-in
 * user, or 401; or an API token's principal when the route names a scope (`scope`) the token holds: 403 for a route
 * that names none (for signed-in staff only) or a scope the token lacks, saying which.
 */
export async function requireStaff(
  db: Db,
  auth: Authenticated | null,
  scope: ApiTokenScope | undefined,
): Promise<User> {
  const principal = auth?.tokenPrincipal;
  if (!principal) return requireUser(db, auth);
  if (!scope) throw forbidden("errors.api_token_staff_only");
  if (!principal.apiToken?.scopes.includes(scope))
    throw new DomainError("forbidden", ["errors.api_token_scope_missing"], undefined, { scope });
  return principal;
}

/** Units the user belongs to; `null` means every unit (superuser). */
export async function visibleUnitIds(db: Db, user: User): Promise<number[] | null> {
  if (user.apiToken) return [user.apiToken.unitId];
  if (user.isSuperuser) return null;
  const rows = await db
    .select({ unitId: schema.memberships.unitId })
    .from(schema.memberships)
    .where(eq(schema.memberships.userId, user.id))
    .all();
  return rows.map((r) => r.unitId);
}

/**
 * The condition "`unitColumn` holds a unit the user belongs to", for a list's WHERE; none for a superuser, who
 * sees every unit. The one visible-units filter of the back office's lists.
 */
export async function inVisibleUnits(db: Db, user: User, unitColumn: SQLiteColumn): Promise<SQL | undefined> {
  const units = await visibleUnitIds(db, user);
  return units === null ? undefined : inArray(unitColumn, units);
}

/** The condition "`eventColumn` holds an event of a unit the user belongs to"; none for a superuser. */
export async function inVisibleEvents(db: Db, user: User, eventColumn: SQLiteColumn): Promise<SQL | undefined> {
  const visible = await inVisibleUnits(db, user, schema.events.unitId);
  return visible && inArray(eventColumn, db.select({ id: schema.events.id }).from(schema.events).where(visible));
}

export async function canSeeUnit(db: Db, user: User, unitId: number): Promise<boolean> {
  const units = await visibleUnitIds(db, user);
  return units === null || units.includes(unitId);
}

/** The event if the user may see it; otherwise 404, as for an id that does not exist. */
export async function getVisibleEvent(db: Db, user: User, eventId: number): Promise<Event> {
  const event = await db.select().from(schema.events).where(eq(schema.events.id, eventId)).get();
  if (!event || !(await canSeeUnit(db, user, event.unitId))) throw notFound("errors.event_not_found");
  return event;
}

/**
 * Editing and creating elements are refused when the event is not a draft, unless superuser (docs/design.md §4). A
 * change starts with `startEventChange` (event-changes.ts), which also records what it does to the event's moderation;
 * this check alone is for what changes nothing buyers see (an image uploaded, not yet used).
 */
export function assertEditable(event: Event, user: User, supportEmail: string) {
  if (isEventLocked(event.status, user.isSuperuser)) throw conflict("errors.editing_locked", { support: supportEmail });
}

/** The frontend login ids of the caller, or 401 when the token carries none. */
export function requireFrontendLogins(auth: AccessClaims | null): number[] {
  if (!auth || auth.frontendLoginIds.length === 0) throw unauthorized();
  return auth.frontendLoginIds;
}

export { forbidden };
