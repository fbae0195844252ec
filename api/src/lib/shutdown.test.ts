// When a draining process stops waiting for its answers (docs/decisions/0035), on a clock the test moves.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { drainDeadline, type GiveUpReason, SHUTDOWN_IDLE_MS } from "./shutdown.ts";

const SECOND = 1000;

/** The deadline's answer so far: undefined while it still waits. */
function watch(reached: Promise<GiveUpReason>) {
  const seen: { reason?: GiveUpReason } = {};
  reached.then((reason) => {
    seen.reason = reason;
  });
  return seen;
}

describe("drainDeadline", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2030-01-01T00:00:00Z") });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps waiting past the idle limit for a download that keeps flowing, up to the configured limit", async () => {
    // Three large PDFs streaming: their connections write more every second.
    let bytes = 0;
    const deadline = drainDeadline(() => bytes, { limitMs: 25 * SECOND });
    const seen = watch(deadline.reached);
    for (let second = 1; second < 25; second++) {
      bytes += 64 * 1024;
      await vi.advanceTimersByTimeAsync(SECOND);
      expect(seen.reason, `after ${second} s`).toBeUndefined();
    }
    // 10 s after the signal the old fixed limit had cut them; at the configured limit the process gives up.
    bytes += 64 * 1024;
    await vi.advanceTimersByTimeAsync(SECOND);
    expect(seen.reason).toBe("limit");
  });

  it("gives up on answers that have not moved a byte for the idle limit", async () => {
    const deadline = drainDeadline(() => 4096, { limitMs: 60 * SECOND });
    const seen = watch(deadline.reached);
    await vi.advanceTimersByTimeAsync(SHUTDOWN_IDLE_MS - SECOND);
    expect(seen.reason).toBeUndefined();
    await vi.advanceTimersByTimeAsync(SECOND);
    expect(seen.reason).toBe("idle");
  });

  it("counts the idle time from the last move: an answer that pauses, then sends again, is waited for", async () => {
    let moved = 0;
    const deadline = drainDeadline(() => moved, { limitMs: 60 * SECOND });
    const seen = watch(deadline.reached);
    await vi.advanceTimersByTimeAsync(SHUTDOWN_IDLE_MS - 2 * SECOND);
    // A PDF computed before its first byte: quiet for 8 s, then written.
    moved = 1;
    await vi.advanceTimersByTimeAsync(SHUTDOWN_IDLE_MS - SECOND);
    expect(seen.reason).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2 * SECOND);
    expect(seen.reason).toBe("idle");
  });

  it("never gives up once stopped (the drain finished first)", async () => {
    const deadline = drainDeadline(() => 0, { limitMs: 5 * SECOND });
    const seen = watch(deadline.reached);
    deadline.stop();
    await vi.advanceTimersByTimeAsync(60 * SECOND);
    expect(seen.reason).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});
