// The admission schedule: positions admitted in order, none twice or skipped, at the rate asked, across changes.
import { describe, expect, it } from "vitest";
import { admissionTime, admittedPositions, parseSchedule, type Schedule, withStep } from "./schedule.ts";

const OPENING = new Date("2030-03-01T09:00:00.000Z");
const at = (ms: number) => new Date(OPENING.getTime() + ms);
const MINUTE = 60_000;

describe("a waiting room's schedule", () => {
  it("admits nobody before the opening, the first at the opening, then one every 60/rate seconds", () => {
    const schedule: Schedule = [[OPENING.toISOString(), 0, 120]];
    expect(admittedPositions(schedule, at(-1))).toBe(0);
    expect(admittedPositions(schedule, OPENING)).toBe(1);
    expect(admittedPositions(schedule, at(499))).toBe(1);
    expect(admittedPositions(schedule, at(500))).toBe(2);
    expect(admissionTime(schedule, 1)).toEqual(OPENING);
    expect(admissionTime(schedule, 3)).toEqual(at(1_000));
  });

  it("admits within 5 % of the rate every minute, for an hour, at rates from 1 to 100,000 a minute", () => {
    for (const rate of [1, 7, 60, 100, 333, 1_000, 100_000]) {
      const schedule: Schedule = [[OPENING.toISOString(), 0, rate]];
      for (let minute = 0; minute < 60; minute++) {
        const inMinute =
          admittedPositions(schedule, at((minute + 1) * MINUTE - 1)) -
          admittedPositions(schedule, at(minute * MINUTE - 1));
        expect(Math.abs(inMinute - rate)).toBeLessThanOrEqual(rate * 0.05);
      }
    }
  });

  it("admits every position exactly once, in order, at a time no earlier than the one before", () => {
    let schedule: Schedule = [[OPENING.toISOString(), 0, 50]];
    schedule = withStep(schedule, at(3 * MINUTE + 17), 400); // a faster rate
    schedule = withStep(schedule, at(5 * MINUTE + 1), 0); // paused
    schedule = withStep(schedule, at(9 * MINUTE), 30); // resumed, slower
    let previous = 0;
    let admittedSoFar = 0;
    // Sampled every 100 ms for 20 minutes: the count never goes back and never jumps a position without a time.
    for (let ms = 0; ms <= 20 * MINUTE; ms += 100) {
      const admitted = admittedPositions(schedule, at(ms));
      expect(admitted).toBeGreaterThanOrEqual(admittedSoFar);
      admittedSoFar = admitted;
    }
    for (let position = 1; position <= admittedSoFar; position++) {
      const time = admissionTime(schedule, position)?.getTime() ?? Number.NaN;
      expect(time).toBeGreaterThanOrEqual(previous);
      // Admitted at that time and not a millisecond before.
      expect(admittedPositions(schedule, new Date(time))).toBeGreaterThanOrEqual(position);
      expect(admittedPositions(schedule, new Date(time - 1))).toBeLessThan(position);
      previous = time;
    }
    // Nobody comes in while paused.
    expect(admittedPositions(schedule, at(8 * MINUTE))).toBe(admittedPositions(schedule, at(5 * MINUTE + 1)));
  });

  it("keeps the rate within 5 % per minute after a change of rate", () => {
    const schedule = withStep([[OPENING.toISOString(), 0, 100]], at(10 * MINUTE), 250);
    for (let minute = 11; minute < 40; minute++) {
      const inMinute =
        admittedPositions(schedule, at((minute + 1) * MINUTE)) - admittedPositions(schedule, at(minute * MINUTE));
      expect(Math.abs(inMinute - 250)).toBeLessThanOrEqual(250 * 0.05);
    }
  });

  it("lets nobody in early by pausing and resuming, or by changing the rate", () => {
    // Opened at 1 a minute: position 1 at once, position 2 at one minute.
    let schedule: Schedule = [[OPENING.toISOString(), 0, 1]];
    for (let k = 1; k <= 10; k++) {
      schedule = withStep(schedule, at(k * 1000), 0);
      schedule = withStep(schedule, at(k * 1000 + 100), 1);
    }
    expect(admittedPositions(schedule, at(59_000))).toBe(1);
    schedule = withStep(schedule, at(59_500), 2); // twice as fast: the next one 30 s after the change
    expect(admittedPositions(schedule, at(89_000))).toBe(1);
    expect(admissionTime(schedule, 2)).toEqual(at(89_500));
  });

  it("has no time for a position a pause stops short of", () => {
    const schedule = withStep([[OPENING.toISOString(), 0, 60]], at(10_500), 0);
    expect(admittedPositions(schedule, at(MINUTE))).toBe(11);
    expect(admissionTime(schedule, 11)).toEqual(at(10_000));
    expect(admissionTime(schedule, 12)).toBeNull();
  });

  it("reads a malformed stored schedule as nobody admitted", () => {
    for (const text of ["", "{}", "[[1,2,3]]", '[["not a date",0,1]]', '[["2030-01-01T00:00:00Z",0.5,1]]'])
      expect(admittedPositions(parseSchedule(text), at(MINUTE))).toBe(0);
  });
});
