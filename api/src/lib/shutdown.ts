// When a draining process stops waiting for the answers it still holds (docs/decisions/0035). A fixed limit from
// the signal cut answers that were still flowing — three 500-ticket PDFs were cut at 10 s — while a limit long
// enough for every download would let one stuck request hold a deploy for as long. So the process waits as long
// as its answers move, and gives up when none has moved a byte for SHUTDOWN_IDLE_MS, or at the configured limit.

/** Long enough for an answer still being computed (a large PDF) before its first byte; a stuck one holds no longer. */
export const SHUTDOWN_IDLE_MS = 10_000;

/** How often the answers' progress is read: a coarse look is enough for limits counted in seconds. */
const CHECK_EVERY_MS = 1_000;

export type GiveUpReason = "idle" | "limit";

export interface DrainDeadline {
  /** Resolves with why the drain should give up; never resolves once `stop` is called. */
  reached: Promise<GiveUpReason>;
  stop(): void;
}

/**
 * Starts counting at the signal. `progress` answers a figure that changes whenever an answer in flight moves (the
 * bytes read and written on their connections, the answers finished): any change since the last look counts.
 * Timers come from the global clock, which a test replaces with one it controls.
 */
export function drainDeadline(
  progress: () => number,
  limits: { idleMs?: number; limitMs: number; checkEveryMs?: number },
): DrainDeadline {
  const { idleMs = SHUTDOWN_IDLE_MS, limitMs, checkEveryMs = CHECK_EVERY_MS } = limits;
  const startedAt = Date.now();
  let lastMovedAt = startedAt;
  let lastSeen = progress();
  let timer: NodeJS.Timeout | undefined;
  const reached = new Promise<GiveUpReason>((giveUp) => {
    timer = setInterval(() => {
      const now = Date.now();
      const seen = progress();
      if (seen !== lastSeen) {
        lastSeen = seen;
        lastMovedAt = now;
      }
      if (now - startedAt >= limitMs) giveUp("limit");
      else if (now - lastMovedAt >= idleMs) giveUp("idle");
    }, checkEveryMs);
  });
  reached.then(() => clearInterval(timer));
  return { reached, stop: () => clearInterval(timer) };
}
