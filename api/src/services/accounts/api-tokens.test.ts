// A unit's API tokens (docs/decisions/0044): an owner creates one, sees it once, uses it within its unit and its
// scopes, sees when it was last used, and revokes it; the database never holds its text.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, run, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import { createApp } from "../../app.ts";
import { hashToken } from "../../lib/tokens.ts";
import {
  createOnSaleEvent,
  DRIVERS,
  FRENCH,
  loginAs,
  signedInMember,
  signedInUser,
  type TestContext,
} from "../../test-support.ts";
import { createEvent } from "../events/events.ts";
import { useCheckInDoor } from "../tickets/check-ins.fixtures.ts";
import { ticketKeysOf } from "../tickets/ticket-codes.ts";
import { authenticateApiToken } from "./api-tokens.ts";

const ALL = ["read", "check_in", "manage"];

describe.each(DRIVERS)("API tokens (%s)", (driver) => {
  const { ctx, event, order, scan } = useCheckInDoor(driver);

  /** An owner's new token of the unit: the creation's answer. */
  async function create(ownerToken: string, unitId: number, scopes: string[], name = "Door scanner") {
    const created = await ctx.call("POST", `/units/${unitId}/api-tokens`, {
      token: ownerToken,
      body: { name, scopes },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: number; token: string; prefix: string; scopes: string[]; last_used_at: string | null };
  }
  const stored = (id: number) =>
    ctx.database.db.select().from(schema.apiTokens).where(eq(schema.apiTokens.id, id)).get();

  it("is shown once, at its creation; the database keeps its SHA-256 and its prefix, never its text", async () => {
    const { sale, staff } = await event();
    const unitId = sale.organiser.personalUnitId as number;
    const created = await create(staff, unitId, ["check_in", "read", "read"]);
    expect(created.token).toMatch(/^tkt_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.token.slice(0, 12));
    expect(created.scopes).toEqual(["read", "check_in"]);
    expect(created.last_used_at).toBeNull();

    const row = await stored(created.id);
    expect(row?.tokenHash).toBe(hashToken(created.token));
    const secret = created.token.slice(12);
    expect(JSON.stringify(row)).not.toContain(secret);
    // Nor anywhere in the database's files (the write-ahead log included).
    const files = readdirSync(ctx.dataDir).filter((name) => /sqlite|\.db/.test(name));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(join(ctx.dataDir, file)).includes(secret), file).toBe(false);

    // The list shows its prefix, never the token again.
    const list = await ctx.call("GET", `/units/${unitId}/api-tokens`, { token: staff });
    expect(list.status).toBe(200);
    expect(list.headers.get("content-range")).toBe("api-tokens 0-0/1");
    expect(list.body[0]).toMatchObject({ id: created.id, name: "Door scanner", prefix: created.prefix });
    expect(list.body[0]).not.toHaveProperty("token");
    expect(list.body[0]).not.toHaveProperty("token_hash");
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it("is created by the unit's owners only: a member 403, an outsider 404, nobody 401; bad input 400", async () => {
    const { sale, staff } = await event();
    const unitId = sale.organiser.personalUnitId as number;
    const member = await signedInMember(ctx, unitId);
    const outsider = await signedInUser(ctx, "outsider");
    const body = { name: "Sync", scopes: ["read"] };
    const path = `/units/${unitId}/api-tokens`;
    expect((await ctx.call("POST", path, { token: member.token, body })).status).toBe(403);
    expect((await ctx.call("GET", path, { token: member.token })).status).toBe(403);
    expect((await ctx.call("POST", path, { token: outsider.token, body })).status).toBe(404);
    expect((await ctx.call("POST", path, { body })).status).toBe(401);
    const none = await ctx.call("POST", path, { token: staff, body: { name: "Sync", scopes: [] } });
    expect(none.status).toBe(400);
    expect(none.body.field_errors.scopes).toBe("Choose at least one scope");
    expect((await ctx.call("POST", path, { token: staff, body: { name: "Sync", scopes: ["admin"] } })).status).toBe(
      400,
    );
    expect((await ctx.call("POST", path, { token: staff, body: { name: " ", scopes: ["read"] } })).status).toBe(400);
    expect((await ctx.call("GET", path, { token: staff })).body).toEqual([]);
  });

  it("acts within its scopes: 403 naming the scope it lacks, in the caller's language", async () => {
    const { sale, staff } = await event();
    const unitId = sale.organiser.personalUnitId as number;
    const { token } = await create(staff, unitId, ["read"]);
    const { codes } = await order(sale);

    expect((await ctx.call("GET", `/events/${sale.event.id}`, { token })).status).toBe(200);
    const refused = await scan(sale.event.id, token, codes[0] as string);
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual(['This API token lacks the scope "check_in" that this request needs']);
    const french = await ctx.call("PUT", `/events/${sale.event.id}`, {
      token,
      body: { name: "Renamed" },
      headers: FRENCH,
    });
    expect(french.status).toBe(403);
    expect(french.body.errors).toEqual(["Ce jeton d'API n'a pas la portée « manage » que cette requête demande"]);
  });

  it("checks a ticket in with check_in, recorded as by the token's creator", async () => {
    const { sale, staff } = await event();
    const unitId = sale.organiser.personalUnitId as number;
    const { token } = await create(staff, unitId, ["check_in"]);
    const { codes, lines } = await order(sale);
    const scanned = await scan(sale.event.id, token, codes[0] as string);
    expect(scanned.status, JSON.stringify(scanned.body)).toBe(201);
    const checkIn = await ctx.database.db
      .select()
      .from(schema.checkIns)
      .where(eq(schema.checkIns.selectedNodeId, lines[0]?.id as number))
      .get();
    expect(checkIn?.checkedInById).toBe(sale.organiser.id);
    // The list of the door needs read.
    expect((await ctx.call("GET", `/events/${sale.event.id}/check-ins`, { token })).status).toBe(403);
  });

  it("never reaches past its unit, whatever units its creator may see, and never acts as staff", async () => {
    const { sale, staff } = await event();
    const unitId = sale.organiser.personalUnitId as number;
    // The owner owns a second unit with an event; a superuser makes a token for the first unit.
    const second = await ctx.call("POST", "/units", { token: staff, body: { name: "Second unit" } });
    const other = await createEvent(ctx.database, {
      unitId: second.body.id,
      name: "Elsewhere",
      frontendTitle: "Elsewhere",
      frontendPath: `elsewhere-${driver}-${Date.now()}`,
      startDate: "2030-01-01T10:00:00.000Z",
      endDate: "2030-01-01T12:00:00.000Z",
    });
    const root = await signedInUser(ctx, "root", { isSuperuser: true });
    // A superuser's token is no superuser: its principal is frozen, of the token's unit only.
    const rootToken = await create(root.token, unitId, ALL);
    const claims = await authenticateApiToken(ctx.database, rootToken.token, new Date());
    expect(claims?.userId).toBeNull();
    expect(claims?.frontendLoginIds).toEqual([]);
    expect(claims?.tokenPrincipal).toMatchObject({ id: root.user.id, isSuperuser: false, apiToken: { unitId } });
    expect(Object.isFrozen(claims?.tokenPrincipal)).toBe(true);
    for (const token of [(await create(staff, unitId, ALL)).token, (await create(root.token, unitId, ALL)).token]) {
      expect((await ctx.call("GET", `/events/${other.id}`, { token })).status).toBe(404);
      const events = await ctx.call("GET", "/events", { token });
      expect(events.body.map((row: { id: number }) => row.id)).toEqual([sale.event.id]);
      const elsewhere = await ctx.call("POST", "/events", {
        token,
        body: {
          unit_id: second.body.id,
          name: "E",
          frontend_title: "E",
          frontend_path: `x-${driver}-${Date.now()}`,
          start_date: "2030-01-01T10:00:00Z",
          end_date: "2030-01-01T12:00:00Z",
        },
      });
      expect(elsewhere.status).toBe(404);
      // Staff only, whatever its scopes: the unit, its people, its tokens, moderation.
      for (const [method, path] of [
        ["GET", "/units"],
        ["PUT", `/units/${unitId}`],
        ["GET", `/units/${unitId}/api-tokens`],
        ["POST", `/units/${unitId}/api-tokens`],
        ["GET", "/memberships"],
        ["GET", "/users/me"],
        ["POST", `/events/${sale.event.id}/moderation/approve`],
        ["GET", "/exports/memberships?format=csv"],
      ] as const) {
        const refused = await ctx.call(method, path, { token, body: method === "GET" ? undefined : {} });
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(refused.body.errors[0]).toMatch(/API token/);
      }
      // The ticket office's routes see no one: a token is no buyer.
      expect((await ctx.call("GET", "/frontend/baskets", { token })).status).toBe(401);
    }
  });

  it("is refused once revoked (401); the row stays, revoked, in the list", async () => {
    const { sale, staff } = await event();
    const unitId = sale.organiser.personalUnitId as number;
    const created = await create(staff, unitId, ["read"]);
    expect((await ctx.call("GET", "/events", { token: created.token })).status).toBe(200);
    const member = await signedInMember(ctx, unitId);
    const path = `/units/${unitId}/api-tokens/${created.id}`;
    expect((await ctx.call("DELETE", path, { token: member.token })).status).toBe(403);
    expect((await ctx.call("DELETE", path, { token: created.token })).status).toBe(403);
    const revoked = await ctx.call("DELETE", path, { token: staff });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    expect((await ctx.call("GET", "/events", { token: created.token })).status).toBe(401);
    const again = await ctx.call("DELETE", path, { token: staff });
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const list = await ctx.call("GET", `/units/${unitId}/api-tokens`, { token: staff });
    expect(list.body).toMatchObject([{ id: created.id, revoked_at: revoked.body.revoked_at }]);
    // Another unit's token id, and an unknown token, are 404 and 401.
    const outside = await createOnSaleEvent(ctx, { stock: 1 });
    const outsideOwner = await loginAs(ctx, outside.email, outside.password);
    const theirs = await create(outsideOwner, outside.organiser.personalUnitId as number, ["read"]);
    expect((await ctx.call("DELETE", `/units/${unitId}/api-tokens/${theirs.id}`, { token: staff })).status).toBe(404);
    expect((await ctx.call("GET", "/events", { token: `tkt_${"A".repeat(43)}` })).status).toBe(401);
  });

  describe("when it was last used", () => {
    let clock = new Date("2030-03-01T08:00:00.000Z");
    const appAt = (c: TestContext) =>
      createApp({
        database: c.database,
        config: c.config,
        ticketKeys: ticketKeysOf(c.config.ticketSigningKey),
        now: () => clock,
      });
    const get = (app: ReturnType<typeof createApp>, token: string) =>
      app.request("/api/v1/events", { headers: { authorization: `Bearer ${token}` } });

    it("is recorded at its first use, then at most once a minute", async () => {
      const { sale, staff } = await event();
      const created = await create(staff, sale.organiser.personalUnitId as number, ["read"]);
      const app = appAt(ctx);
      const lastUsed = async () => (await stored(created.id))?.lastUsedAt;
      expect((await get(app, created.token)).status).toBe(200);
      expect(await lastUsed()).toBe("2030-03-01T08:00:00.000Z");
      clock = new Date("2030-03-01T08:00:59.000Z");
      await get(app, created.token);
      expect(await lastUsed()).toBe("2030-03-01T08:00:00.000Z");
      clock = new Date("2030-03-01T08:01:01.000Z");
      await get(app, created.token);
      expect(await lastUsed()).toBe("2030-03-01T08:01:01.000Z");
      // A refused call still counts as a use of the token (it was presented and known).
      clock = new Date("2030-03-01T09:00:00.000Z");
      await app.request("/api/v1/units", { headers: { authorization: `Bearer ${created.token}` } });
      const list = await ctx.call("GET", `/units/${sale.organiser.personalUnitId}/api-tokens`, { token: staff });
      expect(list.body[0].last_used_at).toBe("2030-03-01T09:00:00.000Z");
    });
  });

  it("keeps working when its creator leaves the unit: it is the unit's, until an owner revokes it", async () => {
    const { sale, staff } = await event();
    const unitId = sale.organiser.personalUnitId as number;
    const coOwner = await signedInMember(ctx, unitId, "co-owner");
    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx
          .update(schema.memberships)
          .set({ role: "owner" })
          .where(eq(schema.memberships.userId, coOwner.user.id))
          .run(),
      );
    });
    const { token } = await create(coOwner.token, unitId, ["read"]);
    await ctx.database.transaction(function* (tx) {
      yield* run(tx.delete(schema.memberships).where(eq(schema.memberships.userId, coOwner.user.id)).run());
    });
    expect((await ctx.call("GET", `/events/${sale.event.id}`, { token })).status).toBe(200);
    expect((await ctx.call("GET", `/units/${unitId}/api-tokens`, { token: staff })).body).toHaveLength(1);
  });
});
