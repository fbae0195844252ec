/**
 * Requests take turns with the event loop's I/O, so that a server at its limit still accepts new connections.
 *
 * Node runs a request, from the socket read that delivered it to its first real wait, inside that read's callback,
 * and one turn of the event loop reads every socket that has data: with 100 busy keep-alive connections a turn
 * serves about 100 requests (100–300 ms of pages), and Node accepts new connections a few per turn. Measured on a
 * saturated server (docs/decisions/0021): the listen queue held 75 connections and drained by about 12 a second;
 * 100 visitors arriving during a rush waited 10 s and more for their first answer, some past their browser's patience.
 *
 * `takeTurn()` makes a request wait for the check phase of the loop (`setImmediate`); each turn starts requests in
 * order of arrival until `budgetMs` of that turn is spent, and leaves the rest, still first come first served, to the
 * next turn — after which the loop polls again and accepts what is waiting. Under light load every request starts in the turn
 * it arrived in, after one `setImmediate`.
 */
export function turnTaker(budgetMs = 10) {
  /** Requests not started yet, first come first. */
  const waiting: Array<() => void> = [];
  /** When the current turn's first request started; null until one starts. */
  let turnStartedAt: number | null = null;
  const newTurn = () => {
    turnStartedAt = null;
  };
  // One slot a request: it starts the request that has waited longest, or comes back next turn.
  const slot = () => {
    const now = performance.now();
    if (turnStartedAt === null) {
      turnStartedAt = now;
      // Queued before the slots this turn puts off, so the next turn starts its budget afresh.
      setImmediate(newTurn);
    }
    if (now - turnStartedAt < budgetMs) waiting.shift()?.();
    else setImmediate(slot);
  };
  return function takeTurn(): Promise<void> {
    return new Promise((resolve) => {
      waiting.push(resolve);
      setImmediate(slot);
    });
  };
}
