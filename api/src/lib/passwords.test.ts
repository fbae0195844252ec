import { randomBytes, scryptSync } from "node:crypto";
import { hash } from "@node-rs/argon2";
import { eq, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, insertUser } from "../services/accounts/sessions.ts";
import { createTestContext, DRIVERS, lastMailTo, loginAs, type TestContext } from "../test-support.ts";
import { getDummyHash, hashPassword, needsRehash, verifyPassword } from "./passwords.ts";

const PASSWORD = "correct-horse-battery-1!";
/** argon2id at OWASP's parameters, in PHC form. */
const ARGON2ID_OWASP = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

/** A hash as this product wrote them before argon2id: scrypt N=2^15, r=8, p=1, 16-byte salt, 32-byte key. */
function oldScryptHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$32768$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** argon2 below today's parameters (2 = argon2id). */
const weakArgon2Hash = (password: string) =>
  hash(password, { memoryCost: 8192, timeCost: 1, parallelism: 1, algorithm: 2 as never });

describe("password hashes", () => {
  it("hashes with argon2id at OWASP's parameters, a new salt each time", async () => {
    const [first, second] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    expect(first).toMatch(ARGON2ID_OWASP);
    expect(second).toMatch(ARGON2ID_OWASP);
    expect(first).not.toBe(second);
    expect(await verifyPassword(PASSWORD, first)).toBe(true);
    expect(await verifyPassword("correct-horse-battery-2!", first)).toBe(false);
    expect(needsRehash(first)).toBe(false);
  });

  it("compares unknown accounts against an argon2id hash too, so they take as long", async () => {
    expect(await getDummyHash()).toMatch(ARGON2ID_OWASP);
  });

  it("still accepts the scrypt hashes written before, and asks for them to be replaced", async () => {
    const old = oldScryptHash(PASSWORD);
    expect(await verifyPassword(PASSWORD, old)).toBe(true);
    expect(await verifyPassword("wrong-password-123!", old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
  });

  it("asks to replace argon2 with weaker parameters, or another variant, but keeps a stronger one", async () => {
    expect(needsRehash(await weakArgon2Hash(PASSWORD))).toBe(true);
    expect(needsRehash(await hash(PASSWORD, { algorithm: 1 as never }))).toBe(true);
    expect(needsRehash(await hash(PASSWORD, { memoryCost: 32_768, timeCost: 3, algorithm: 2 as never }))).toBe(false);
  });

  it("matches no password against a malformed or empty hash", async () => {
    for (const stored of ["", "-", "$argon2id$v=19$m=19456,t=2,p=1$", "scrypt$32768$8$1$"])
      expect(await verifyPassword(PASSWORD, stored)).toBe(false);
  });
});

describe.each(DRIVERS)("sign-in with a hash of an older kind (%s)", (driver) => {
  let ctx: TestContext;
  let n = 0;
  beforeAll(async () => {
    ctx = await createTestContext(driver);
  });
  afterAll(async () => ctx.close());

  /** An account as an older version of the product stored it. */
  async function accountWithHash(passwordHash: string) {
    const email = `old${n++}-${driver}@example.org`;
    await ctx.database.transaction(function* (tx) {
      yield* insertUser(tx, { email, passwordHash });
    });
    return email;
  }
  const userRow = async (email: string) => {
    const row = await ctx.database.db.select().from(schema.users).where(eq(schema.users.email, email)).get();
    if (!row) throw new Error(`no user ${email}`);
    return row;
  };
  const login = (email: string, password: string) =>
    ctx.call("POST", "/auth/login", { body: { email, password }, headers: { "x-real-ip": `10.16.0.${n}` } });

  it("upgrades a scrypt hash to argon2id at a successful sign-in and changes nothing else; the password still works", async () => {
    const email = await accountWithHash(oldScryptHash(PASSWORD));
    const before = await userRow(email);

    expect((await login(email, "not-the-password-1!")).status).toBe(400);
    // A failed sign-in changes nothing.
    expect(await userRow(email)).toEqual(before);

    const first = await login(email, PASSWORD);
    expect(first.status).toBe(200);
    const after = await userRow(email);
    expect(after.passwordHash).toMatch(ARGON2ID_OWASP);
    expect({ ...after, passwordHash: before.passwordHash }).toEqual(before);
    // The session of that sign-in is good (its session version did not move).
    expect((await ctx.call("GET", "/auth/me", { token: first.body.access_token })).status).toBe(200);

    expect((await login(email, PASSWORD)).status).toBe(200);
    // Hashed once: a current hash is kept as it is.
    expect((await userRow(email)).passwordHash).toBe(after.passwordHash);
    expect((await login(email, "not-the-password-1!")).status).toBe(400);
  });

  it("upgrades an argon2 hash with weaker parameters the same way", async () => {
    const email = await accountWithHash(await weakArgon2Hash(PASSWORD));
    const before = await userRow(email);
    expect((await login(email, "not-the-password-1!")).status).toBe(400);
    expect(await userRow(email)).toEqual(before);
    expect((await login(email, PASSWORD)).status).toBe(200);
    expect((await userRow(email)).passwordHash).toMatch(ARGON2ID_OWASP);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it("stores argon2id hashes for created, registered, reset and changed passwords", async () => {
    const created = `created${n++}-${driver}@example.org`;
    await createUser(ctx.database, { email: created, password: PASSWORD });
    expect((await userRow(created)).passwordHash).toMatch(ARGON2ID_OWASP);

    const registered = `registered${n++}-${driver}@example.org`;
    const body = { email: registered, first_name: "A", last_name: "B", password: PASSWORD };
    expect(
      (await ctx.call("POST", "/auth/register", { body: { ...body, password_confirmation: PASSWORD } })).status,
    ).toBe(201);
    expect((await userRow(registered)).passwordHash).toMatch(ARGON2ID_OWASP);

    // Reset and change, from a scrypt account that never signed in.
    const email = await accountWithHash(oldScryptHash(PASSWORD));
    await ctx.call("POST", "/auth/password-reset-request", { body: { email } });
    const [userIdB64, tokenB64] = String((await lastMailTo(ctx, email))?.payload.link)
      .split("/")
      .slice(-2);
    const reset = "a-brand-new-secret-2!";
    expect(
      (
        await ctx.call("POST", "/auth/password-reset", {
          body: { user_id_b64: userIdB64, token_b64: tokenB64, password: reset, password_confirmation: reset },
        })
      ).status,
    ).toBe(200);
    const afterReset = (await userRow(email)).passwordHash;
    expect(afterReset).toMatch(ARGON2ID_OWASP);

    const changed = "another-secret-3!";
    const token = await loginAs(ctx, email, reset);
    const change = await ctx.call("POST", "/auth/password-change", {
      token,
      body: { current_password: reset, password: changed, password_confirmation: changed },
    });
    expect(change.status).toBe(200);
    expect((await userRow(email)).passwordHash).toMatch(ARGON2ID_OWASP);
    expect((await login(email, changed)).status).toBe(200);
  });
});
