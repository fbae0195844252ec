// Fixed-window rate limits per key (IP, account), counted in the database: every API process sharing the database
// shares the counts, so a guesser gains nothing by spreading attempts over replicas (docs/decisions/0024). The
// counting is rate-limiter-flexible's Drizzle store on the rate_limits table; taking an attempt back is ours.
import { and, type Database, eq, gt, lt, schema, sql } from "@ticketing/db";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import { DomainError } from "./errors.ts";

export interface RateRule {
  /** attempts allowed per window */
  limit: number;
  windowMs: number;
}

/** How often windows that are over are deleted (one statement, at an attempt). */
const CLEANUP_EVERY_MS = 5 * 60_000;

export class RateLimiter {
  /** One rate-limiter-flexible limiter per allowance and window; all count in the same rows (no key prefix). */
  private readonly limiters = new Map<string, RateLimiterDrizzle>();
  private nextCleanup = 0;

  /** `multiplier` scales every allowance (configuration RATE_LIMIT_MULTIPLIER; e.g. for a browser test suite). */
  constructor(
    private readonly database: Database,
    private readonly multiplier = 1,
  ) {}

  private limiterOf(rule: RateRule) {
    const points = rule.limit * this.multiplier;
    const name = `${points}/${rule.windowMs}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      // Its own cleanup is a timer per limiter that outlives the database: `removeExpired` replaces it.
      limiter = new RateLimiterDrizzle({
        storeClient: this.database.db,
        schema: schema.rateLimits,
        keyPrefix: "",
        points,
        duration: rule.windowMs / 1000,
        clearExpiredByTimeout: false,
      });
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  /** Counts an attempt under `key`; throws 429 when the window's allowance is used up, saying `message`. */
  async hit(key: string, rule: RateRule, message?: string) {
    await this.removeExpired();
    try {
      await this.limiterOf(rule).consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw new TooManyRequests(Math.ceil(refusal.msBeforeNext / 1000), message);
    }
  }

  /**
   * Takes back one attempt counted under `key` in its current window (one that turned out not to count). Not the
   * library's `reward`: on a window that is over it would open a new one at -1, an attempt more than allowed.
   */
  async forgive(key: string) {
    const { rateLimits } = schema;
    await this.database.db
      .update(rateLimits)
      .set({ points: sql`${rateLimits.points} - 1` })
      .where(and(eq(rateLimits.key, key), gt(rateLimits.expire, new Date()), gt(rateLimits.points, 0)));
  }

  /** Deletes the windows that are over, at most once per CLEANUP_EVERY_MS in this process. */
  private async removeExpired() {
    const now = Date.now();
    if (now < this.nextCleanup) return;
    this.nextCleanup = now + CLEANUP_EVERY_MS;
    await this.database.db.delete(schema.rateLimits).where(lt(schema.rateLimits.expire, new Date(now)));
  }
}

export class TooManyRequests extends DomainError {
  /** `message`: an api.json key with a `{{minutes}}` placeholder. */
  constructor(
    readonly retryAfterSeconds: number,
    message = "errors.too_many_attempts",
  ) {
    super("too_many_requests", [message], undefined, {
      minutes: Math.max(1, Math.ceil(retryAfterSeconds / 60)),
    });
  }
}

export const RATE_RULES = {
  /** Wrong passwords from one address, whatever the accounts (spraying), by clients without a device cookie. */
  loginFailuresPerIp: { limit: 30, windowMs: 15 * 60_000 },
  /** Wrong passwords for one account from one address, by clients without a device cookie. */
  loginFailuresPerAccountAndIp: { limit: 10, windowMs: 15 * 60_000 },
  /** Wrong passwords for one account from every client without a device cookie: past it, none of them may try. */
  loginFailuresPerAccountUntrusted: { limit: 100, windowMs: 15 * 60_000 },
  /** Wrong passwords for one account from the browser holding one device cookie of it, wherever it is. */
  loginFailuresPerDevice: { limit: 10, windowMs: 15 * 60_000 },
  registerPerIp: { limit: 10, windowMs: 60 * 60_000 },
  resetPerIp: { limit: 10, windowMs: 60 * 60_000 },
  resetPerAccount: { limit: 3, windowMs: 60 * 60_000 },
  /**
   * New guest sign-ins from one address (docs/decisions/0036): a campus or an office behind one NAT must still sign
   * its people in at an on-sale's opening, so this is loose; with the caps per buyer it bounds what one address can
   * hold (50 logins × the cap per 10 minutes) where nothing bounded it.
   */
  anonymousLoginsPerAddress: { limit: 50, windowMs: 10 * 60_000 },
  /** New guest sign-ins from one browser (its ticket-office device cookie): a person needs a few, not dozens. */
  anonymousLoginsPerDevice: { limit: 10, windowMs: 60 * 60_000 },
} satisfies Record<string, RateRule>;

/**
 * Sign-in guessing (issue 10, finding 6; issue 28, finding 12; docs/decisions/0033). Wrong passwords are what
 * counts, and a client that has used up its allowance is refused before its password is even checked.
 *
 * - A browser presenting a valid device cookie for the account (`device`, lib/device-cookies.ts) is counted for
 *   that cookie alone: neither its address's count nor the account's stops it, so nobody without the cookie —
 *   whoever shares its address, whoever guesses from everywhere — can lock it out; a stolen cookie still gets only
 *   its own few guesses.
 * - Any other client is counted per address, per (account, address), and per account over every untrusted client:
 *   past that last allowance nobody without a device cookie may try the account until the window ends (the owner
 *   signs in from a browser that has one, or gets one by following a password-reset link).
 *
 * Every attempt is counted up front, before the password check, so that parallel requests cannot slip past the
 * allowance while the hash is computed; `succeeded` takes the attempt back.
 */
export async function loginAttempt(limiter: RateLimiter, ip: string, account: string, device: string | null) {
  if (device) {
    const key = `login:device:${device}`;
    await limiter.hit(key, RATE_RULES.loginFailuresPerDevice);
    return { succeeded: () => limiter.forgive(key) };
  }
  const keys = {
    account: `login:account:${account}`,
    ip: `login:ip:${ip}`,
    pair: `login:account-ip:${account}:${ip}`,
  };
  await limiter.hit(keys.account, RATE_RULES.loginFailuresPerAccountUntrusted);
  try {
    await limiter.hit(keys.ip, RATE_RULES.loginFailuresPerIp);
    await limiter.hit(keys.pair, RATE_RULES.loginFailuresPerAccountAndIp);
  } catch (error) {
    // Refused before any check: not a guess at the account.
    await limiter.forgive(keys.account);
    throw error;
  }
  return {
    async succeeded() {
      for (const key of Object.values(keys)) await limiter.forgive(key);
    },
  };
}
