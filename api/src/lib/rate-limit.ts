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

  /** Counts an attempt under `key`; throws 429 when the window's allowance is used up. */
  hit(key: string, rule: RateRule) {
    const now = this.now();
    if (this.windows.size > 50_000) for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + rule.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count > rule.limit * this.multiplier) {
      const seconds = Math.ceil((window.resetAt - now) / 1000);
      throw new TooManyRequests(seconds);
    }
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
  loginPerIp: { limit: 30, windowMs: 15 * 60_000 },
  loginPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  registerPerIp: { limit: 10, windowMs: 60 * 60_000 },
  resetPerIp: { limit: 10, windowMs: 60 * 60_000 },
  resetPerAccount: { limit: 3, windowMs: 60 * 60_000 },
} satisfies Record<string, RateRule>;
