import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, type Database, type Driver, schema } from "@ticketing/db";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DRIVERS } from "../test-support.ts";
import { loginAttempt, RATE_RULES, RateLimiter, TooManyRequests } from "./rate-limit.ts";

const MINUTE = 60_000;

/**
 * Two connections to one database file: two API processes as far as the limits can tell (each its own limiter,
 * nothing shared but the file).
 */
function twoProcesses(driver: Driver) {
  const directory = mkdtempSync(join(tmpdir(), "ticketing-rate-limit-"));
  const url = `file:${join(directory, "ticketing.sqlite")}`;
  const databases: Database[] = [];
  beforeAll(async () => {
    databases.push(createDatabase({ url, driver }));
    await databases[0]?.migrate();
    databases.push(createDatabase({ url, driver }));
  });
  afterAll(async () => {
    for (const database of databases) await database.close();
    rmSync(directory, { recursive: true, force: true });
  });
  // The windows are counted on the clock (the database keeps when each ends): the test moves the clock.
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") });
    await databases[0]?.db.delete(schema.rateLimits);
  });
  afterEach(() => vi.useRealTimers());
  return () => databases as [Database, Database];
}

/**
 * Sign-ins through one of the processes, whose password turns out right or wrong; `device` is what the browser's
 * device cookie proved for the account (lib/device-cookies.ts), null for none.
 */
function signIns(limiter: RateLimiter) {
  return async (ip: string, isRight: boolean, account = "owner@example.org", device: string | null = null) => {
    try {
      const attempt = await loginAttempt(limiter, ip, account, device);
      if (isRight) await attempt.succeeded();
      return isRight ? "signed in" : "wrong password";
    } catch (error) {
      if (error instanceof TooManyRequests) return "429";
      throw error;
    }
  };
}

describe.each(DRIVERS)("sign-in limits (%s)", (driver) => {
  const databases = twoProcesses(driver);
  let signIn: ReturnType<typeof signIns>;
  beforeEach(() => {
    signIn = signIns(new RateLimiter(databases()[0]));
  });
  const wait = (ms: number) => vi.setSystemTime(Date.now() + ms);

  it("refuses an address after 10 wrong passwords for an account, until the window ends", async () => {
    for (let i = 0; i < 10; i++) expect(await signIn("10.0.0.1", false)).toBe("wrong password");
    expect(await signIn("10.0.0.1", false)).toBe("429");
    expect(await signIn("10.0.0.1", true)).toBe("429");
    wait(15 * MINUTE);
    expect(await signIn("10.0.0.1", true)).toBe("signed in");
  });

  it("lets the owner sign in from another address whatever one guesser did", async () => {
    for (let i = 0; i < 50; i++) await signIn("10.0.0.1", false);
    expect(await signIn("10.9.9.9", true)).toBe("signed in");
  });

  it("locks clients without a device cookie out of an account guessed at from everywhere, until the window ends", async () => {
    const allowance = RATE_RULES.loginFailuresPerAccountUntrusted.limit;
    for (let i = 0; i < allowance; i++)
      expect(await signIn(`10.0.${Math.floor(i / 10)}.1`, false)).toBe("wrong password");
    // No client without a device cookie may try the account now, from a new address, with the right password too…
    expect(await signIn("10.2.0.1", true)).toBe("429");
    // …but the owner's browser with its device cookie signs in, again and again.
    for (let i = 0; i < 5; i++)
      expect(await signIn("10.2.0.1", true, "owner@example.org", "owners-laptop")).toBe("signed in");
    // Other accounts are not affected.
    for (let i = 0; i < 10; i++) expect(await signIn("10.1.0.1", false, "other@example.org")).toBe("wrong password");
    wait(15 * MINUTE);
    expect(await signIn("10.2.0.1", true)).toBe("signed in");
  });

  it("counts a device cookie's attempts for it alone: a shared address's guesser cannot lock it out", async () => {
    // Issue 28, finding 12: 10 wrong passwords for the account from an office's address, and 30 over many accounts.
    for (let i = 0; i < 10; i++) expect(await signIn("10.0.0.1", false)).toBe("wrong password");
    for (let i = 0; i < 20; i++)
      expect(await signIn("10.0.0.1", false, `colleague${i}@example.org`)).toBe("wrong password");
    expect(await signIn("10.0.0.1", true)).toBe("429");
    expect(await signIn("10.0.0.1", true, "colleague0@example.org")).toBe("429");
    // The owner's browser, from the same address, signs in; so does a colleague's with its own device cookie.
    expect(await signIn("10.0.0.1", true, "owner@example.org", "owners-laptop")).toBe("signed in");
    expect(await signIn("10.0.0.1", true, "colleague0@example.org", "colleagues-pc")).toBe("signed in");
  });

  it("limits a device cookie's own wrong passwords, wherever they come from, and no one else's", async () => {
    const allowance = RATE_RULES.loginFailuresPerDevice.limit;
    for (let i = 0; i < allowance; i++)
      expect(await signIn(`10.0.0.${i}`, false, "owner@example.org", "stolen")).toBe("wrong password");
    expect(await signIn("10.0.1.1", false, "owner@example.org", "stolen")).toBe("429");
    expect(await signIn("10.0.1.1", true, "owner@example.org", "stolen")).toBe("429");
    // The owner's other browser, and the owner without a device cookie, are not held by it.
    expect(await signIn("10.0.1.1", true, "owner@example.org", "owners-laptop")).toBe("signed in");
    expect(await signIn("10.0.1.2", true)).toBe("signed in");
    wait(15 * MINUTE);
    expect(await signIn("10.0.1.1", true, "owner@example.org", "stolen")).toBe("signed in");
  });

  it("refuses an address spraying wrong passwords over many accounts", async () => {
    for (let i = 0; i < 30; i++)
      expect(await signIn("10.0.0.1", false, `person${i}@example.org`)).toBe("wrong password");
    expect(await signIn("10.0.0.1", false, "person-last@example.org")).toBe("429");
  });

  it("does not count right passwords", async () => {
    for (let i = 0; i < 40; i++) expect(await signIn("10.0.0.1", true)).toBe("signed in");
    for (let i = 0; i < 10; i++) expect(await signIn("10.0.0.1", false)).toBe("wrong password");
  });

  it("scales every allowance by RATE_LIMIT_MULTIPLIER", async () => {
    const generous = signIns(new RateLimiter(databases()[0], 3));
    for (let i = 0; i < 30; i++) expect(await generous("10.0.0.1", false)).toBe("wrong password");
    expect(await generous("10.0.0.1", false)).toBe("429");
  });

  it("says when to come back: the minutes left in the window", async () => {
    const limiter = new RateLimiter(databases()[0]);
    for (let i = 0; i < RATE_RULES.resetPerAccount.limit; i++)
      await limiter.hit("reset:account:a@example.org", RATE_RULES.resetPerAccount);
    wait(20 * MINUTE);
    const refusal = await limiter.hit("reset:account:a@example.org", RATE_RULES.resetPerAccount).catch((e) => e);
    expect(refusal).toBeInstanceOf(TooManyRequests);
    expect((refusal as TooManyRequests).retryAfterSeconds).toBe(40 * 60);
  });
});

describe.each(DRIVERS)("limits shared by two processes on one database (%s)", (driver) => {
  const databases = twoProcesses(driver);

  it("refuses the 11th wrong password whichever process receives it", async () => {
    const [one, two] = databases().map((database) => signIns(new RateLimiter(database)));
    if (!one || !two) throw new Error("two processes");
    for (let i = 0; i < 10; i++) expect(await (i % 2 ? two : one)("10.0.0.1", false)).toBe("wrong password");
    expect(await one("10.0.0.1", false)).toBe("429");
    expect(await two("10.0.0.1", false)).toBe("429");
    expect(await two("10.0.0.1", true)).toBe("429");
  });

  it("takes a right password back in every process's count", async () => {
    const [one, two] = databases().map((database) => signIns(new RateLimiter(database)));
    if (!one || !two) throw new Error("two processes");
    for (let i = 0; i < 9; i++) expect(await one("10.0.0.1", false)).toBe("wrong password");
    expect(await two("10.0.0.1", true)).toBe("signed in");
    expect(await two("10.0.0.1", false)).toBe("wrong password");
    expect(await one("10.0.0.1", false)).toBe("429");
  });

  it("deletes the windows that are over", async () => {
    const [first, second] = databases();
    if (!first || !second) throw new Error("two processes");
    await new RateLimiter(first).hit("register:ip:10.0.0.1", RATE_RULES.registerPerIp);
    await new RateLimiter(first).hit("reset:ip:10.0.0.1", RATE_RULES.resetPerIp);
    vi.setSystemTime(Date.now() + 61 * MINUTE);
    await new RateLimiter(second).hit("register:ip:10.0.0.2", RATE_RULES.registerPerIp);
    const keys = await first.db.select({ key: schema.rateLimits.key }).from(schema.rateLimits).all();
    expect(keys.map((row) => row.key)).toEqual(["register:ip:10.0.0.2"]);
  });
});
