// Fixed-window rate limits per key (IP, account), in this process's memory: enough for one server; several
// replicas would each count their own share.
import { DomainError } from "./errors.ts";

export interface RateRule {
  /** attempts allowed per window */
  limit: number;
  windowMs: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  /** `multiplier` scales every allowance (configuration RATE_LIMIT_MULTIPLIER; e.g. for a browser test suite). */
  constructor(
    private readonly multiplier = 1,
    private readonly now: () => number = Date.now,
  ) {}

  /** The window of `key`, a fresh one when it has none or its window is over. */
  private windowOf(key: string, rule: RateRule) {
    const now = this.now();
    if (this.windows.size > 50_000) for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + rule.windowMs };
      this.windows.set(key, window);
    }
    return window;
  }

  private allowance(rule: RateRule) {
    return rule.limit * this.multiplier;
  }

  /** Counts an attempt under `key`; throws 429 when the window's allowance is used up. */
  hit(key: string, rule: RateRule) {
    const window = this.windowOf(key, rule);
    window.count += 1;
    if (window.count > this.allowance(rule)) throw new TooManyRequests(Math.ceil((window.resetAt - this.now()) / 1000));
  }

  /** Counts an attempt under `key` without ever refusing it; answers whether the allowance is now exceeded. */
  count(key: string, rule: RateRule): boolean {
    const window = this.windowOf(key, rule);
    window.count += 1;
    return window.count > this.allowance(rule);
  }

  /** Takes back one attempt counted under `key` in its current window (one that turned out not to count). */
  forgive(key: string) {
    const window = this.windows.get(key);
    if (window && window.resetAt > this.now() && window.count > 0) window.count -= 1;
  }
}

export class TooManyRequests extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super("too_many_requests", ["errors.too_many_attempts"], undefined, {
      minutes: Math.max(1, Math.ceil(retryAfterSeconds / 60)),
    });
  }
}

export const RATE_RULES = {
  /** Wrong passwords from one address, whatever the accounts (spraying). */
  loginFailuresPerIp: { limit: 30, windowMs: 15 * 60_000 },
  /** Wrong passwords for one account from one address. */
  loginFailuresPerAccountAndIp: { limit: 10, windowMs: 15 * 60_000 },
  /** Wrong passwords for one account from every address: past this ceiling the account is under attack… */
  loginFailuresPerAccount: { limit: 100, windowMs: 15 * 60_000 },
  /** …and each address gets this few for it, instead of loginFailuresPerAccountAndIp. */
  loginFailuresPerAccountAndIpUnderAttack: { limit: 2, windowMs: 15 * 60_000 },
  registerPerIp: { limit: 10, windowMs: 60 * 60_000 },
  resetPerIp: { limit: 10, windowMs: 60 * 60_000 },
  resetPerAccount: { limit: 3, windowMs: 60 * 60_000 },
} satisfies Record<string, RateRule>;

/**
 * Sign-in guessing (issue 10, finding 6). Wrong passwords are what counts, per (account, address) and per
 * address, and an address that has used up its allowance is refused before its password is even checked. The
 * account's own count over every address never refuses anyone: past its ceiling it only shrinks each address's
 * allowance for that account, which slows guessing spread over many addresses. So an attacker elsewhere cannot
 * lock the owner out: the owner's right password from an address without failures always signs in.
 *
 * Every attempt is counted up front, before the password check, so that parallel requests cannot slip past the
 * allowance while the hash is computed; `succeeded` takes the attempt back.
 */
export function loginAttempt(limiter: RateLimiter, ip: string, account: string) {
  const keys = {
    ip: `login:ip:${ip}`,
    pair: `login:account-ip:${account}:${ip}`,
    account: `login:account:${account}`,
  };
  const isUnderAttack = limiter.count(keys.account, RATE_RULES.loginFailuresPerAccount);
  try {
    limiter.hit(keys.ip, RATE_RULES.loginFailuresPerIp);
    limiter.hit(
      keys.pair,
      isUnderAttack ? RATE_RULES.loginFailuresPerAccountAndIpUnderAttack : RATE_RULES.loginFailuresPerAccountAndIp,
    );
  } catch (error) {
    // Refused before any check: not a guess at the account.
    limiter.forgive(keys.account);
    throw error;
  }
  return {
    succeeded() {
      for (const key of Object.values(keys)) limiter.forgive(key);
    },
  };
}
