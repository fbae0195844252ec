// When each position of a waiting room is admitted (docs/decisions/0037): a pure function of the room's schedule and
// the time, so every API process, reading the same row, agrees on every admission without a process of its own.
//
// A schedule is a list of steps `[at, admitted, rate]`: from `at` on, the first `admitted` positions are in, and one
// more every 60 000 / rate ms (none while rate is 0). The opening is the first step, `[opensAt, 0, rate]`, and lets
// position 1 in at once; a change of rate, a pause (rate 0) and a resume each add a step at the moment they happen,
// from the positions admitted by then, the next one coming in one interval of the new rate later — so pausing and
// resuming never lets anyone in early. Nobody is admitted twice or skipped: the admitted positions are always
// exactly 1..admittedPositions(now).

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

/** Who a step lets in at its very start: the opening, position 1; a later step, nobody more yet. */
const atStart = (index: number) => (index === 0 ? 1 : 0);

/** How many positions step `index` has admitted at `time` (ms), the step being the current one. */
function admittedBy([at, admitted, rate]: Step, index: number, time: number): number {
  const elapsed = time - Date.parse(at);
  if (elapsed < 0 || rate <= 0) return admitted;
  return admitted + atStart(index) + Math.floor((elapsed * rate) / MINUTE_MS);
}

/** How many positions are admitted at `now`: 0 before the opening. */
export function admittedPositions(schedule: Schedule, now: Date): number {
  const time = now.getTime();
  // The step in force: the last one that started at or before `now`.
  let current = -1;
  for (const [index, step] of schedule.entries()) if (Date.parse(step[0]) <= time) current = index;
  const step = schedule[current];
  return step ? admittedBy(step, current, time) : 0;
}

/**
 * When position `position` (1-based) is admitted, or was: null when the schedule as it stands never reaches it (it
 * is paused before). A running last step gives a time in the future for a position not reached yet.
 */
export function admissionTime(schedule: Schedule, position: number): Date | null {
  for (const [index, step] of schedule.entries()) {
    const [at, admitted, rate] = step;
    if (rate <= 0 || position <= admitted) continue;
    // The smallest t with admitted + atStart + floor((t - at) * rate / 60 000) >= position.
    const time = Date.parse(at) + Math.ceil(((position - admitted - atStart(index)) * MINUTE_MS) / rate);
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
