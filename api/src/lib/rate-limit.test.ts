import { describe, expect, it } from "vitest";
import { loginAttempt, RATE_RULES, RateLimiter, TooManyRequests } from "./rate-limit.ts";

const MINUTE = 60_000;

/** A limiter on a clock the test moves, and one sign-in whose password turns out right or wrong. */
function setup() {
  let now = 0;
  const limiter = new RateLimiter(1, () => now);
  const signIn = (ip: string, isRight: boolean, account = "owner@example.org") => {
    try {
      const attempt = loginAttempt(limiter, ip, account);
      if (isRight) attempt.succeeded();
      return isRight ? "signed in" : "wrong password";
    } catch (error) {
      if (error instanceof TooManyRequests) return "429";
      throw error;
    }
  };
  return { signIn, wait: (ms: number) => (now += ms) };
}

describe("sign-in limits", () => {
  it("refuses an address after 10 wrong passwords for an account, until the window ends", () => {
    const { signIn, wait } = setup();
    for (let i = 0; i < 10; i++) expect(signIn("10.0.0.1", false)).toBe("wrong password");
    expect(signIn("10.0.0.1", false)).toBe("429");
    expect(signIn("10.0.0.1", true)).toBe("429");
    wait(15 * MINUTE);
    expect(signIn("10.0.0.1", true)).toBe("signed in");
  });

  it("lets the owner sign in from another address whatever one guesser did", () => {
    const { signIn } = setup();
    for (let i = 0; i < 50; i++) signIn("10.0.0.1", false);
    expect(signIn("10.9.9.9", true)).toBe("signed in");
  });

  it("slows guessing spread over many addresses without locking the owner out", () => {
    const { signIn } = setup();
    const ceiling = RATE_RULES.loginFailuresPerAccount.limit;
    for (let i = 0; i < ceiling; i++) expect(signIn(`10.0.${Math.floor(i / 10)}.1`, false)).toBe("wrong password");
    // Under attack, a new address gets 2 wrong passwords for the account instead of 10…
    expect(signIn("10.1.0.1", false)).toBe("wrong password");
    expect(signIn("10.1.0.1", false)).toBe("wrong password");
    expect(signIn("10.1.0.1", false)).toBe("429");
    // …and the owner's right password from an address without failures still signs in, again and again.
    for (let i = 0; i < 5; i++) expect(signIn("10.2.0.1", true)).toBe("signed in");
    // Other accounts are not affected.
    for (let i = 0; i < 10; i++) expect(signIn("10.1.0.1", false, "other@example.org")).toBe("wrong password");
  });

  it("refuses an address spraying wrong passwords over many accounts", () => {
    const { signIn } = setup();
    for (let i = 0; i < 30; i++) expect(signIn("10.0.0.1", false, `person${i}@example.org`)).toBe("wrong password");
    expect(signIn("10.0.0.1", false, "person-last@example.org")).toBe("429");
  });

  it("does not count right passwords", () => {
    const { signIn } = setup();
    for (let i = 0; i < 40; i++) expect(signIn("10.0.0.1", true)).toBe("signed in");
    for (let i = 0; i < 10; i++) expect(signIn("10.0.0.1", false)).toBe("wrong password");
  });
});
