// When each position of a waiting room is admitted (docs/decisions/0037): a pure function of the room's schedule and
// the time, so every API process, reading the same row, agrees on every admission without a process of its own.
//
// A schedule is a list of steps `[at, admitted, rate]`: from `at` on, the first `admitted` positions are in, and
// then — if `rate` > 0 — position `admitted + 1` at `at` itself and one more every 60 000 / rate ms. The opening is
// the first step, `[opensAt, 0, rate]`; a change of rate, a pause (rate 0) and a resume each add a step at the
// moment they happen, starting from the positions admitted by then. Nobody is admitted twice or skipped: the
// admitted positions are always exactly 1..admittedPositions(now).

export type Step = [at: string, admitted: number, rate: number];
export type Schedule = Step[];

const MINUTE_MS = 60_000;

/** The schedule stored in `waiting_rooms.schedule`; anything malformed reads as no step (nobody admitted). */
export function parseSchedule(text: string): Schedule {
  try {
    const steps: unknown = JSON.parse(text);
    if (!Array.isArray(steps)) return [];
    return steps.filter(
      (step): step is Step =>
        Array.isArray(step) &&
        typeof step[0] === "string" &&
        Number.isSafeInteger(step[1]) &&
        Number.isSafeInteger(step[2]) &&
        !Number.isNaN(Date.parse(step[0])),
    );
  } catch {
    return [];
  }
}

/** How many positions a step has admitted at `time` (ms), the step being the current one. */
function admittedBy([at, admitted, rate]: Step, time: number): number {
  const elapsed = time - Date.parse(at);
  if (elapsed < 0) return admitted;
  return rate > 0 ? admitted + 1 + Math.floor((elapsed * rate) / MINUTE_MS) : admitted;
}

/** The step in force at `time`: the last one that started at or before it. */
function stepAt(schedule: Schedule, time: number): Step | undefined {
  let current: Step | undefined;
  for (const step of schedule) if (Date.parse(step[0]) <= time) current = step;
  return current;
}

/** How many positions are admitted at `now`: 0 before the opening. */
export function admittedPositions(schedule: Schedule, now: Date): number {
  const step = stepAt(schedule, now.getTime());
  return step ? admittedBy(step, now.getTime()) : 0;
}

/**
 * When position `position` (1-based) is admitted, or was: null when the schedule as it stands never reaches it (it
 * is paused before). A running last step gives a time in the future for a position not reached yet.
 */
export function admissionTime(schedule: Schedule, position: number): Date | null {
  for (const [index, step] of schedule.entries()) {
    const [at, admitted, rate] = step;
    if (rate <= 0 || position <= admitted) continue;
    // The smallest t with admitted + 1 + floor((t - at) * rate / 60 000) >= position.
    const time = Date.parse(at) + Math.ceil(((position - admitted - 1) * MINUTE_MS) / rate);
    const next = schedule[index + 1];
    if (!next || time < Date.parse(next[0])) return new Date(time);
  }
  return null;
}

/** The schedule with a new step at `now` (a rate change, a pause with rate 0, a resume) from what is admitted then. */
export function withStep(schedule: Schedule, now: Date, rate: number): Schedule {
  const kept = schedule.filter((step) => Date.parse(step[0]) <= now.getTime());
  return [...kept, [now.toISOString(), admittedPositions(schedule, now), rate]];
}

/** Whether the last step admits nobody more (paused). */
export const isPausedSchedule = (schedule: Schedule) => (schedule.at(-1)?.[2] ?? 0) <= 0;
