// Work a request leaves for after its answer (docs/decisions/0033): what only some answers would otherwise wait
// for, so that their time cannot tell them apart — a reset link for an account that exists, the rows of a new
// account. The work is in memory: a process that dies just after answering loses it (the person asks again).

export type Task = () => Promise<void>;

/** How a task is started: `begin` is called when it may run. */
type Start = (begin: () => void) => void;

/** What of a Node answer tells that it is out: @hono/node-server's `outgoing`. */
interface NodeAnswer {
  readonly writableFinished: boolean;
  once(event: "finish" | "close", listener: () => void): unknown;
}

/**
 * How long a task waits after its answer was handed to the system. Started at once, its work competed with the
 * answer's delivery on a machine whose cores were busy (a client or a proxy on the same machine): a reset request
 * for an existing account still looked 0.6 ms slower to the client (120 + 120 requests, one threshold guessing
 * 59 %); with this pause, 3.02 ms against 2.98 ms (54 %, a coin's guess).
 */
export const PAUSE_AFTER_ANSWER_MS = 40;

/**
 * Runs tasks once the answer of the request that scheduled them is out. Within a request (`forAnswer`), a task
 * starts PAUSE_AFTER_ANSWER_MS after its Node answer was handed to the system (`finish`), or its connection closed;
 * without one, at the event loop's check phase (`setImmediate`). A failure is reported to `onError` (the log);
 * `settled` waits for every task scheduled, those of every request, for a clean shutdown.
 */
export class AfterAnswer {
  /** `start` begins a task: the check phase unless a test holds tasks to begin them when it chooses. */
  constructor(
    private readonly onError: (error: unknown) => void,
    private readonly start: Start = setImmediate,
    private readonly running = new Set<Promise<void>>(),
  ) {}

  /** The same queue, for one request: its tasks start once `answer` is out (or as without one, when absent). */
  forAnswer(answer: NodeAnswer | undefined): AfterAnswer {
    if (!answer) return this;
    const start: Start = (begin) => {
      const pause = () => setTimeout(begin, PAUSE_AFTER_ANSWER_MS);
      if (answer.writableFinished) {
        pause();
        return;
      }
      let isBegun = false;
      const once = () => {
        if (isBegun) return;
        isBegun = true;
        pause();
      };
      answer.once("finish", once);
      answer.once("close", once);
    };
    return new AfterAnswer(this.onError, start, this.running);
  }

  schedule(task: Task): void {
    const done: Promise<void> = new Promise<void>((begin) => this.start(begin))
      .then(task)
      .catch(this.onError)
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Resolves once every task scheduled (those scheduled meanwhile too) has finished. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
