import { describe, expect, it } from "vitest";
import { turnTaker } from "./turns.ts";

/** Holds the thread as a request's rendering does. */
const work = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

/**
 * Twenty requests of 2 ms each arrive at once; a timer due at once stands for what the event loop does between
 * turns (accepting a connection, reading a socket). Answers the order in which they ran.
 */
async function burst(start: () => Promise<void>) {
  const ran: string[] = [];
  const requests = Array.from({ length: 20 }, (_, n) =>
    start().then(() => {
      work(2);
      ran.push(`request ${n}`);
    }),
  );
  setTimeout(() => ran.push("loop"), 0);
  await Promise.all(requests);
  await new Promise((resolve) => setTimeout(resolve, 5));
  return ran;
}

describe("turnTaker", () => {
  it("lets the event loop go round once a turn's budget is spent, then goes on in order of arrival", async () => {
    const ran = await burst(turnTaker(6));
    expect(ran.indexOf("loop")).toBeLessThan(10);
    expect(ran.filter((step) => step !== "loop")).toEqual(Array.from({ length: 20 }, (_, n) => `request ${n}`));
  });

  it("is what keeps the loop from waiting for the whole burst", async () => {
    const ran = await burst(() => Promise.resolve());
    expect(ran.at(-1)).toBe("loop");
  });

  it("serves a request that arrives while others wait after them", async () => {
    const takeTurn = turnTaker(4);
    const ran: string[] = [];
    let newcomer: Promise<void> | undefined;
    const requests = Array.from({ length: 10 }, (_, n) =>
      takeTurn().then(() => {
        if (n === 0) newcomer = takeTurn().then(() => void ran.push("newcomer"));
        work(2);
        ran.push(`request ${n}`);
      }),
    );
    await Promise.all(requests);
    await newcomer;
    expect(ran.at(-1)).toBe("newcomer");
  });
});
