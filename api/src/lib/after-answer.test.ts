import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AfterAnswer, PAUSE_AFTER_ANSWER_MS } from "./after-answer.ts";

/** A Node answer as @hono/node-server hands it over: `finish` once its last byte is with the system. */
class Answer extends EventEmitter {
  writableFinished = false;
  finish() {
    this.writableFinished = true;
    this.emit("finish");
    this.emit("close");
  }
}

// The clock is the test's: the pause after an answer passes when the test says.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe("work after the answer", () => {
  it("starts a request's work only once its answer is out and the pause has passed, once; shutdown waits for it", async () => {
    const done: string[] = [];
    const queue = new AfterAnswer((error) => done.push(`failed: ${error}`));
    const answer = new Answer();
    queue.forAnswer(answer).schedule(async () => {
      done.push("link mailed");
    });
    await vi.advanceTimersByTimeAsync(10 * PAUSE_AFTER_ANSWER_MS);
    expect(done).toEqual([]);
    answer.finish();
    await vi.advanceTimersByTimeAsync(PAUSE_AFTER_ANSWER_MS - 1);
    expect(done).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await queue.settled();
    expect(done).toEqual(["link mailed"]);
  });

  it("starts after an answer already out, or a lost connection; reports a failure without stopping others", async () => {
    const done: string[] = [];
    const queue = new AfterAnswer((error) => done.push(`failed: ${(error as Error).message}`));
    const out = new Answer();
    out.finish();
    queue.forAnswer(out).schedule(async () => {
      throw new Error("database gone");
    });
    const lost = new Answer();
    queue.forAnswer(lost).schedule(async () => {
      done.push("account written");
    });
    lost.emit("close");
    await vi.advanceTimersByTimeAsync(PAUSE_AFTER_ANSWER_MS);
    await queue.settled();
    expect(done.sort()).toEqual(["account written", "failed: database gone"]);
  });
});
