import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../services/accounts/sessions.ts";
import { createTestContext, loginAs, type TestContext } from "../test-support.ts";

const PASSWORD = "correct-horse-battery-1!";

describe("units and memberships", () => {
  let ctx: TestContext;
  let owner: string;
  let unitId: number;
  beforeAll(async () => {
    ctx = await createTestContext();
    const user = await createUser(ctx.database, { email: "owner@example.org", password: PASSWORD });
    await createUser(ctx.database, { email: "colleague@example.org", password: PASSWORD });
    unitId = user.personalUnitId as number;
    owner = await loginAs(ctx, "owner@example.org", PASSWORD);
  });
  afterAll(async () => ctx.close());

  it("checks IBANs: refuses a wrong checksum, stores a valid one in electronic format", async () => {
    const wrong = await ctx.call("PUT", `/units/${unitId}`, {
      token: owner,
      body: { iban: "CH93 0076 2011 6238 5295 8" },
    });
    expect(wrong).toMatchObject({ status: 400, body: { field_errors: { iban: "Enter a valid IBAN" } } });
    const right = await ctx.call("PUT", `/units/${unitId}`, {
      token: owner,
      body: { iban: "ch93 0076 2011 6238 5295 7", payout_account_holder: "Jazz Club" },
    });
    expect(right.body).toMatchObject({ iban: "CH9300762011623852957", payout_account_holder: "Jazz Club" });
  });

  it("lets only superusers change agent fees", async () => {
    const refused = await ctx.call("PUT", `/units/${unitId}`, { token: owner, body: { agent_fees: 250 } });
    expect(refused).toMatchObject({ status: 403, body: { errors: ["Only superusers can change agent fees"] } });
    // Sending the fees unchanged (as a whole form does) is fine.
    expect(
      (await ctx.call("PUT", `/units/${unitId}`, { token: owner, body: { agent_fees: 0, name: "Jazz Club" } })).status,
    ).toBe(200);
    await createUser(ctx.database, { email: "root@example.org", password: PASSWORD, isSuperuser: true });
    const root = await loginAs(ctx, "root@example.org", PASSWORD);
    expect(
      (await ctx.call("PUT", `/units/${unitId}`, { token: root, body: { agent_fees: 250 } })).body.agent_fees,
    ).toBe(250);
  });

  it("adds members by email, refuses unknown emails and duplicates, and never removes the last owner", async () => {
    const unknown = await ctx.call("POST", "/memberships", {
      token: owner,
      body: { unit_id: unitId, email: "ghost@example.org" },
    });
    expect(unknown).toMatchObject({
      status: 400,
      body: { field_errors: { email: "No account uses this email address" } },
    });
    const added = await ctx.call("POST", "/memberships", {
      token: owner,
      body: { unit_id: unitId, email: "colleague@example.org", role: "member" },
    });
    expect(added.status).toBe(201);
    expect(
      (
        await ctx.call("POST", "/memberships", {
          token: owner,
          body: { unit_id: unitId, email: "colleague@example.org" },
        })
      ).status,
    ).toBe(409);
    const members = await ctx.call(
      "GET",
      `/memberships?filter=${encodeURIComponent(JSON.stringify({ unit_id: unitId }))}`,
      { token: owner },
    );
    const own = members.body.find((m: { user: { email: string } }) => m.user.email === "owner@example.org");
    const demote = await ctx.call("PUT", `/memberships/${own.id}`, { token: owner, body: { role: "member" } });
    expect(demote).toMatchObject({ status: 409, body: { errors: ["A unit must keep at least one owner"] } });
    expect((await ctx.call("DELETE", `/memberships/${own.id}`, { token: owner })).status).toBe(409);
    // With a second owner, the first may step down.
    expect(
      (await ctx.call("PUT", `/memberships/${added.body.id}`, { token: owner, body: { role: "owner" } })).status,
    ).toBe(200);
    expect((await ctx.call("PUT", `/memberships/${own.id}`, { token: owner, body: { role: "member" } })).status).toBe(
      200,
    );
    // Now a member, the first may no longer manage the unit.
    expect((await ctx.call("PUT", `/units/${unitId}`, { token: owner, body: { description: "x" } })).status).toBe(403);
  });
});

describe("translated validation messages", () => {
  it("answers the IBAN error as a sentence, in the caller's language, in both lists", async () => {
    const ctx = await createTestContext();
    const user = await createUser(ctx.database, { email: "fr@example.org", password: PASSWORD });
    const token = await loginAs(ctx, "fr@example.org", PASSWORD);
    const response = await ctx.call("PUT", `/units/${user.personalUnitId}`, {
      token,
      body: { iban: "CH00 1234" },
      headers: { "accept-language": "fr" },
    });
    expect(response.body).toEqual({
      errors: ["Saisissez un IBAN valide"],
      field_errors: { iban: "Saisissez un IBAN valide" },
    });
    await ctx.close();
  });
});

describe("bad input on units", () => {
  let ctx: TestContext;
  let owner: string;
  let unitId: number;
  beforeAll(async () => {
    ctx = await createTestContext();
    const user = await createUser(ctx.database, { email: "bad-input@example.org", password: PASSWORD });
    unitId = user.personalUnitId as number;
    owner = await loginAs(ctx, "bad-input@example.org", PASSWORD);
  });
  afterAll(async () => ctx.close());

  it("answers an update with nothing to change with the unit as it is", async () => {
    const before = await ctx.call("GET", `/units/${unitId}`, { token: owner });
    for (const body of [{}, { id: unitId, created_at: before.body.created_at, current_user_role: "owner" }]) {
      const response = await ctx.call("PUT", `/units/${unitId}`, { token: owner, body });
      expect(response).toMatchObject({ status: 200, body: before.body });
    }
  });

  it("answers a path id that is not an id as an unknown unit: 404, in the caller's language", async () => {
    for (const id of ["abc", "0x1", "1e0", "1.0", "01", "%201", "-1", "0", "9007199254740992", "true", "[1]"]) {
      expect(await ctx.call("GET", `/units/${id}`, { token: owner }), id).toMatchObject({
        status: 404,
        body: { errors: ["Resource not found"] },
      });
      expect((await ctx.call("PUT", `/units/${id}`, { token: owner, body: { name: "x" } })).status, id).toBe(404);
    }
    expect(await ctx.call("GET", "/units/0x1", { token: owner, headers: { "accept-language": "fr" } })).toMatchObject({
      body: { errors: ["Ressource introuvable"] },
    });
  });

  it('refuses ids in a body that are not ids: true, [1], "0x1", fractions, zero', async () => {
    for (const id of [true, [unitId], `0x${unitId}`, `${unitId}.0`, 1.5, 0, -unitId, `${unitId}e0`]) {
      const response = await ctx.call("POST", "/memberships", {
        token: owner,
        body: { unit_id: id, email: "bad-input@example.org" },
      });
      expect(response, JSON.stringify(id)).toMatchObject({
        status: 400,
        body: { field_errors: { unit_id: "Expected an id: a whole number from 1, written in digits" } },
      });
    }
    // An id written in digits is an id (forms and query strings send text).
    const same = await ctx.call("POST", "/memberships", {
      token: owner,
      body: { unit_id: String(unitId), email: "bad-input@example.org" },
    });
    expect(same).toMatchObject({ status: 409, body: { errors: ["This person is already a member of the unit"] } });
  });
});
