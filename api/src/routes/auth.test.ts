import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { deviceCookieName } from "../lib/device-cookies.ts";
import { decodeUserId, verifyRegistration } from "../services/accounts/accounts.ts";
import { createUser } from "../services/accounts/sessions.ts";
import { renderMail } from "../services/mail/templates/registry.ts";
import {
  createOnSaleEvent,
  createTestContext,
  DRIVERS,
  lastMailLink,
  lastMailTo,
  loginAs,
  type TestContext,
} from "../test-support.ts";

const PASSWORD = "correct-horse-battery-1!";

describe.each(DRIVERS)("back-office accounts (%s)", (driver) => {
  let ctx: TestContext;
  let n = 0;
  const email = () => `person${n++}-${driver}@example.org`;
  beforeAll(async () => {
    ctx = await createTestContext(driver);
  });
  afterAll(async () => ctx.close());

  it("registers, refuses login until the emailed link is followed, then logs in; the link works once", async () => {
    const address = email();
    const registered = await ctx.call("POST", "/auth/register", {
      body: {
        email: address,
        first_name: "Ada",
        last_name: "Lovelace",
        password: PASSWORD,
        password_confirmation: PASSWORD,
      },
    });
    expect(registered.status).toBe(201);
    const early = await ctx.call("POST", "/auth/login", { body: { email: address, password: PASSWORD } });
    expect(early.body.errors).toEqual(["Please confirm your email address first: follow the link we sent you"]);
    const link = await lastMailLink(ctx, address);
    expect(link).toMatch(/^http:\/\/localhost:3000\/admin\/auth\/register\/verify\/[\w-]+\/[\w-]+$/);
    const [userIdB64, hash] = link.split("/").slice(-2);
    expect((await ctx.call("POST", "/auth/register/verify", { body: { user_id_b64: userIdB64, hash } })).status).toBe(
      200,
    );
    expect((await ctx.call("POST", "/auth/login", { body: { email: address, password: PASSWORD } })).status).toBe(200);
    const again = await ctx.call("POST", "/auth/register/verify", { body: { user_id_b64: userIdB64, hash } });
    expect(again).toMatchObject({
      status: 400,
      body: { errors: ["This verification link is invalid or has expired"] },
    });
    // A new user gets a personal unit they own.
    const token = await loginAs(ctx, address, PASSWORD);
    const units = await ctx.call("GET", "/units", { token });
    expect(units.body).toEqual([expect.objectContaining({ current_user_role: "owner" })]);
  });

  it("refuses a verification link after 3 days", async () => {
    const address = email();
    await ctx.call("POST", "/auth/register", {
      body: { email: address, first_name: "A", last_name: "B", password: PASSWORD, password_confirmation: PASSWORD },
    });
    const [userIdB64, hash] = (await lastMailLink(ctx, address)).split("/").slice(-2) as [string, string];
    expect(decodeUserId(userIdB64)).toBeGreaterThan(0);
    await expect(
      verifyRegistration(ctx.database, userIdB64, hash, new Date(Date.now() + 3 * 86_400_000 + 60_000)),
    ).rejects.toThrow();
  });

  it("tells the owner of a taken address that someone tried to register with it, in the registration's language", async () => {
    const address = email();
    await createUser(ctx.database, { email: address, password: PASSWORD });
    await ctx.call("POST", "/auth/register", {
      body: { email: address, first_name: "X", last_name: "Y", password: PASSWORD, password_confirmation: PASSWORD },
      headers: { "accept-language": "fr", "x-real-ip": "10.6.0.1" },
    });
    const mail = await lastMailTo(ctx, address);
    expect(mail).toMatchObject({ kind: "register_existing", language: "fr" });
    const context = { database: ctx.database, config: ctx.config };
    const french = await renderMail(context, { kind: "register_existing", language: "fr", payload: mail?.payload });
    expect(french.subject).toBe("Quelqu'un a essayé de créer un compte avec votre adresse");
    expect(french.text).toContain("http://localhost:3000/admin/auth/password-reset-request");
    const english = await renderMail(context, { kind: "register_existing", language: "en", payload: mail?.payload });
    expect(english.subject).toBe("Someone tried to create an account with your address");
    expect(english.text).toContain("If it was not you, you can ignore this email: your account has not changed.");
  });

  it("refuses weak passwords and a confirmation that does not match, with the specification's messages, in French too", async () => {
    const body = { email: email(), first_name: "A", last_name: "B", password: "short", password_confirmation: "other" };
    const response = await ctx.call("POST", "/auth/register", { body });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        "Should contain at least 12 characters",
        "Should contain at least one special character",
        "Passwords must match",
      ]),
    );
    expect(response.body.field_errors).toMatchObject({
      password: "Should contain at least 12 characters",
      password_confirmation: "Passwords must match",
    });
    const french = await ctx.call("POST", "/auth/register", { body, headers: { "accept-language": "fr" } });
    expect(french.body.errors).toContain("Doit contenir au moins 12 caractères");
  });

  it("answers a reset request the same whether or not the account exists; the link resets once and ends other sessions", async () => {
    const address = email();
    await createUser(ctx.database, { email: address, password: PASSWORD });
    const session = await ctx.call("POST", "/auth/login", { body: { email: address, password: PASSWORD } });
    const known = await ctx.call("POST", "/auth/password-reset-request", { body: { email: address } });
    const unknown = await ctx.call("POST", "/auth/password-reset-request", {
      body: { email: `nobody-${driver}@example.org` },
    });
    expect(known).toMatchObject({ status: 200 });
    expect(unknown.body).toEqual(known.body);
    const [userIdB64, tokenB64] = (await lastMailLink(ctx, address)).split("/").slice(-2);
    const fresh = "a-brand-new-secret-2!";
    const reset = { user_id_b64: userIdB64, token_b64: tokenB64, password: fresh, password_confirmation: fresh };
    expect((await ctx.call("POST", "/auth/password-reset", { body: reset })).status).toBe(200);
    expect((await ctx.call("POST", "/auth/password-reset", { body: reset })).status).toBe(400);
    expect((await ctx.call("POST", "/auth/login", { body: { email: address, password: PASSWORD } })).status).toBe(400);
    expect((await ctx.call("POST", "/auth/login", { body: { email: address, password: fresh } })).status).toBe(200);
    const revoked = await ctx.call("POST", "/auth/token/refresh", {
      body: { refresh_token: session.body.refresh_token },
    });
    expect(revoked.status).toBe(401);
  });

  it("ends every session at a password reset: access tokens issued before get 401, a new sign-in works", async () => {
    const address = email();
    await createUser(ctx.database, { email: address, password: PASSWORD });
    const before = (await ctx.call("POST", "/auth/login", { body: { email: address, password: PASSWORD } })).body;
    expect((await ctx.call("GET", "/units", { token: before.access_token })).status).toBe(200);
    await ctx.call("POST", "/auth/password-reset-request", { body: { email: address } });
    const [userIdB64, tokenB64] = (await lastMailLink(ctx, address)).split("/").slice(-2);
    const fresh = "a-brand-new-secret-2!";
    const reset = { user_id_b64: userIdB64, token_b64: tokenB64, password: fresh, password_confirmation: fresh };
    expect((await ctx.call("POST", "/auth/password-reset", { body: reset })).status).toBe(200);
    // The access token of the session before is refused at once, not 15 minutes later…
    const old = await ctx.call("GET", "/units", { token: before.access_token });
    expect(old).toMatchObject({ status: 401 });
    expect((await ctx.call("GET", "/auth/me", { token: before.access_token })).status).toBe(401);
    // …its refresh token is revoked…
    const refreshed = await ctx.call("POST", "/auth/token/refresh", { body: { refresh_token: before.refresh_token } });
    expect(refreshed.status).toBe(401);
    // …and it cannot be carried into a ticket-office session either.
    const sale = await createOnSaleEvent(ctx, { stock: 1 });
    const carried = await ctx.call("POST", "/auth/anonymous-login", {
      token: before.access_token,
      body: { active_module_id: sale.moduleId },
    });
    expect(carried.status).toBe(201);
    expect((await ctx.call("GET", "/units", { token: carried.body.access_token })).status).toBe(401);
    // A new sign-in works, and its session lasts through a refresh.
    const after = (await ctx.call("POST", "/auth/login", { body: { email: address, password: fresh } })).body;
    expect((await ctx.call("GET", "/units", { token: after.access_token })).status).toBe(200);
    const renewed = await ctx.call("POST", "/auth/token/refresh", { body: { refresh_token: after.refresh_token } });
    expect((await ctx.call("GET", "/units", { token: renewed.body.access_token })).status).toBe(200);
  });

  it("changes a password only with the current one", async () => {
    const address = email();
    await createUser(ctx.database, { email: address, password: PASSWORD });
    const token = await loginAs(ctx, address, PASSWORD);
    const wrong = await ctx.call("POST", "/auth/password-change", {
      token,
      body: {
        current_password: "not-it-at-all!",
        password: "another-secret-3!",
        password_confirmation: "another-secret-3!",
      },
    });
    expect(wrong).toMatchObject({
      status: 400,
      body: { field_errors: { current_password: "The current password is not correct" } },
    });
    const right = await ctx.call("POST", "/auth/password-change", {
      token,
      body: { current_password: PASSWORD, password: "another-secret-3!", password_confirmation: "another-secret-3!" },
    });
    expect(right.status).toBe(200);
    // The session that changed the password goes on with the tokens of the answer; its old token is refused.
    expect((await ctx.call("GET", "/units", { token: right.body.access_token })).status).toBe(200);
    expect((await ctx.call("GET", "/units", { token })).status).toBe(401);
    expect(
      (await ctx.call("POST", "/auth/login", { body: { email: address, password: "another-secret-3!" } })).status,
    ).toBe(200);
  });

  it("rotates refresh tokens; presenting a rotated one again revokes the whole session", async () => {
    const address = email();
    await createUser(ctx.database, { email: address, password: PASSWORD });
    const first = (await ctx.call("POST", "/auth/login", { body: { email: address, password: PASSWORD } })).body;
    const second = await ctx.call("POST", "/auth/token/refresh", { body: { refresh_token: first.refresh_token } });
    expect(second.status).toBe(200);
    const stolen = await ctx.call("POST", "/auth/token/refresh", { body: { refresh_token: first.refresh_token } });
    expect(stolen.status).toBe(401);
    const legit = await ctx.call("POST", "/auth/token/refresh", { body: { refresh_token: second.body.refresh_token } });
    expect(legit.status).toBe(401);
  });

  it("stops a guesser with 429 and Retry-After, while the owner signs in from another address", async () => {
    const address = email();
    await createUser(ctx.database, { email: address, password: PASSWORD });
    const signIn = (ip: string, password: string, who = address) =>
      ctx.call("POST", "/auth/login", { body: { email: who, password }, headers: { "x-real-ip": ip } });
    for (let i = 0; i < 10; i++) expect((await signIn("10.1.0.1", "wrong-password!!")).status).toBe(400);
    const blocked = await signIn("10.1.0.1", "wrong-password!!");
    expect(blocked.status).toBe(429);
    expect(blocked.body.errors[0]).toMatch(/^Too many attempts\. Try again in \d+ minutes\.$/);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The guesser's address is refused before its password is checked, the right one too…
    expect((await signIn("10.1.0.1", PASSWORD)).status).toBe(429);
    // …but the owner, from their own address, signs in.
    expect((await signIn("10.1.1.1", PASSWORD)).status).toBe(200);
    // Spraying many accounts from one address is stopped too.
    for (let i = 0; i < 30; i++) await signIn("10.2.0.1", "wrong-password!!", `spray${i}-${driver}@example.org`);
    expect((await signIn("10.2.0.1", "wrong-password!!", `spray-last-${driver}@example.org`)).status).toBe(429);
  });

  it("counts wrong passwords only: signing in again and again from one address is never refused", async () => {
    const address = email();
    await createUser(ctx.database, { email: address, password: PASSWORD });
    const signIn = (password: string) =>
      ctx.call("POST", "/auth/login", { body: { email: address, password }, headers: { "x-real-ip": "10.4.0.1" } });
    for (let i = 0; i < 9; i++) expect((await signIn("wrong-password!!")).status).toBe(400);
    for (let i = 0; i < 12; i++) expect((await signIn(PASSWORD)).status).toBe(200);
    expect((await signIn("wrong-password!!")).status).toBe(400);
    expect((await signIn("wrong-password!!")).status).toBe(429);
  });

  it("lets one address sign in 30 times in a row, then refuses its 11th wrong password in a row with 429", async () => {
    const address = email();
    await createUser(ctx.database, { email: address, password: PASSWORD });
    const signIn = (password: string) =>
      ctx.call("POST", "/auth/login", { body: { email: address, password }, headers: { "x-real-ip": "10.5.0.1" } });
    for (let i = 0; i < 30; i++) expect((await signIn(PASSWORD)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await signIn("wrong-password!!")).status).toBe(400);
    expect((await signIn("wrong-password!!")).status).toBe(429);
  });

  it("limits reset requests per account", async () => {
    const address = email();
    for (let i = 0; i < 3; i++)
      expect(
        (
          await ctx.call("POST", "/auth/password-reset-request", {
            body: { email: address },
            headers: { "x-real-ip": `10.3.0.${i}` },
          })
        ).status,
      ).toBe(200);
    expect(
      (
        await ctx.call("POST", "/auth/password-reset-request", {
          body: { email: address },
          headers: { "x-real-ip": "10.3.0.9" },
        })
      ).status,
    ).toBe(429);
  });
});

/**
 * Issue 28, finding 12: 10 wrong passwords from a shared address (an office, a proxy) made the owner's right one
 * answer 429 for 15 minutes; 30 locked every account from it. A browser that signed in holds a device cookie for
 * the account, and its attempts are counted for it alone (docs/decisions/0033). The clock is the test's.
 */
describe.each(DRIVERS)("sign-in under attack, with device cookies (%s)", (driver) => {
  let ctx: TestContext;
  let n = 0;
  const email = () => `device${n++}-${driver}@example.org`;
  const WRONG = "wrong-password!!";
  beforeAll(async () => {
    ctx = await createTestContext(driver);
  });
  afterAll(async () => ctx.close());
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2031-03-01T09:00:00Z") });
  });
  afterEach(() => vi.useRealTimers());
  const wait = (minutes: number) => vi.setSystemTime(Date.now() + minutes * 60_000);

  /** A browser: the device cookies it was given for the sign-in path, sent back with its sign-ins. */
  function browser() {
    const jar = new Map<string, string>();
    const keep = (headers: Headers) => {
      for (const line of headers.getSetCookie()) {
        const [pair = "", ...attributes] = line.split("; ");
        if (!attributes.includes("Path=/api/v1/auth/login")) continue;
        const [name = "", value = ""] = pair.split("=");
        jar.set(name, value);
      }
    };
    const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    return {
      jar,
      keep,
      async signIn(who: string, password: string, ip: string) {
        const headers: Record<string, string> = { "x-real-ip": ip };
        if (jar.size > 0) headers.cookie = cookie();
        const answer = await ctx.call("POST", "/auth/login", { body: { email: who, password }, headers });
        keep(answer.headers);
        return answer.status;
      },
    };
  }
  const attacker = (who: string, password: string, ip: string) =>
    ctx.call("POST", "/auth/login", { body: { email: who, password }, headers: { "x-real-ip": ip } });

  it("lets the owner's browser sign in after an attacker's 30 wrong passwords from the owner's address", async () => {
    const owner = email();
    await createUser(ctx.database, { email: owner, password: PASSWORD });
    const laptop = browser();
    expect(await laptop.signIn(owner, PASSWORD, "10.8.0.1")).toBe(200);
    expect(laptop.jar.size).toBe(1);
    // The office's address: 10 wrong passwords for the owner, 20 more over colleagues' accounts.
    for (let i = 0; i < 10; i++) expect((await attacker(owner, WRONG, "10.8.0.1")).status).toBe(400);
    for (let i = 0; i < 20; i++) expect((await attacker(email(), WRONG, "10.8.0.1")).status).toBe(400);
    expect((await attacker(owner, PASSWORD, "10.8.0.1")).status).toBe(429);
    // The owner's browser, from that address, signs in (it answered 429 for 15 minutes before).
    expect(await laptop.signIn(owner, PASSWORD, "10.8.0.1")).toBe(200);
    // Without a device cookie: refused from that address (it cannot be told from the attacker), welcome elsewhere.
    expect(await browser().signIn(owner, PASSWORD, "10.8.0.1")).toBe(429);
    expect(await browser().signIn(owner, PASSWORD, "10.8.9.9")).toBe(200);
  });

  it("gives the device cookie only to the browser, only for the sign-ins, Secure on an https site", async () => {
    const owner = email();
    await createUser(ctx.database, { email: owner, password: PASSWORD });
    const signIn = await ctx.call("POST", "/auth/login", { body: { email: owner, password: PASSWORD } });
    const cookies = signIn.headers.getSetCookie();
    expect(cookies).toEqual([
      expect.stringMatching(
        /^device_\w+=d1\.\d+\.[\w-]+\.[0-9a-f]{64}; Max-Age=15552000; Path=\/api\/v1\/auth\/login; HttpOnly; SameSite=Strict$/,
      ),
      expect.stringMatching(
        /^device_\w+=d1\.[^;]+; Max-Age=15552000; Path=\/tickets\/preview; HttpOnly; SameSite=Strict$/,
      ),
    ]);
    // A refused sign-in gives none.
    const refused = await ctx.call("POST", "/auth/login", { body: { email: owner, password: WRONG } });
    expect(refused.headers.getSetCookie()).toEqual([]);
    const https = await createTestContext(driver, { PUBLIC_URL: "https://tickets.example.org" });
    try {
      await createUser(https.database, { email: owner, password: PASSWORD });
      const secure = await https.call("POST", "/auth/login", { body: { email: owner, password: PASSWORD } });
      expect(secure.headers.getSetCookie()).toHaveLength(2);
      for (const cookie of secure.headers.getSetCookie()) expect(cookie).toContain("; Secure");
    } finally {
      await https.close();
    }
  });

  it("gives no benefit to a forged device cookie, an altered one, or another account's", async () => {
    const victim = email();
    const attackers = email();
    await createUser(ctx.database, { email: victim, password: PASSWORD });
    await createUser(ctx.database, { email: attackers, password: PASSWORD });
    const own = browser();
    expect(await own.signIn(attackers, PASSWORD, "10.9.0.1")).toBe(200);
    const [ownName = "", ownValue = ""] = [...own.jar][0] ?? [];
    const victimsName = deviceCookieName(ctx.config.secretKey, victim);
    const [version, issued, nonce] = ownValue.split(".");
    const presented = [
      `${ownName}=${ownValue}`,
      `${victimsName}=${ownValue}`,
      `${victimsName}=${version}.${issued}.${nonce}.${"0".repeat(64)}`,
      `${victimsName}=not-a-device-cookie`,
      `${victimsName}=%E0%A4%A; ${victimsName}=`,
    ];
    // Each counts as no cookie: one address's 10 wrong passwords for the account, then 429.
    for (let i = 0; i < 10; i++) {
      const cookie = presented[i % presented.length] as string;
      const answer = await ctx.call("POST", "/auth/login", {
        body: { email: victim, password: WRONG },
        headers: { "x-real-ip": "10.9.0.1", cookie },
      });
      expect(answer.status).toBe(400);
    }
    for (const cookie of presented) {
      const answer = await ctx.call("POST", "/auth/login", {
        body: { email: victim, password: WRONG },
        headers: { "x-real-ip": "10.9.0.1", cookie },
      });
      expect(answer.status).toBe(429);
    }
  });

  it("limits a device cookie's own wrong passwords to 10 in 15 minutes, wherever they come from", async () => {
    const owner = email();
    await createUser(ctx.database, { email: owner, password: PASSWORD });
    const stolen = browser();
    expect(await stolen.signIn(owner, PASSWORD, "10.10.0.1")).toBe(200);
    for (let i = 0; i < 10; i++) expect(await stolen.signIn(owner, WRONG, `10.10.1.${i}`)).toBe(400);
    expect(await stolen.signIn(owner, WRONG, "10.10.2.1")).toBe(429);
    expect(await stolen.signIn(owner, PASSWORD, "10.10.2.1")).toBe(429);
    // The owner's other browser is not held by it.
    expect(await browser().signIn(owner, PASSWORD, "10.10.3.1")).toBe(200);
    wait(15);
    expect(await stolen.signIn(owner, PASSWORD, "10.10.2.1")).toBe(200);
  });

  it("locks browsers without a device cookie out of an account guessed at from everywhere; a reset link lets the owner in", async () => {
    const owner = email();
    await createUser(ctx.database, { email: owner, password: PASSWORD });
    // 100 wrong passwords from 10 addresses: the account's allowance for clients without a device cookie.
    for (let i = 0; i < 100; i++) await attacker(owner, WRONG, `10.11.${Math.floor(i / 10)}.1`);
    const newPhone = browser();
    expect(await newPhone.signIn(owner, PASSWORD, "10.11.99.1")).toBe(429);
    // The owner asks for a reset link and follows it on the new phone: the phone becomes a device of the account.
    await ctx.call("POST", "/auth/password-reset-request", { body: { email: owner } });
    const [userIdB64, tokenB64] = (await lastMailLink(ctx, owner)).split("/").slice(-2);
    const fresh = "a-brand-new-secret-2!";
    const reset = await ctx.call("POST", "/auth/password-reset", {
      body: { user_id_b64: userIdB64, token_b64: tokenB64, password: fresh, password_confirmation: fresh },
      headers: { "x-real-ip": "10.11.99.1" },
    });
    expect(reset.status).toBe(200);
    newPhone.keep(reset.headers);
    expect(await newPhone.signIn(owner, fresh, "10.11.99.1")).toBe(200);
    // Other browsers without one wait for the window to end.
    expect(await browser().signIn(owner, fresh, "10.11.98.1")).toBe(429);
    wait(15);
    expect(await browser().signIn(owner, fresh, "10.11.98.1")).toBe(200);
  });
});
