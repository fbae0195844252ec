// Work a request leaves for after its answer (docs/decisions/0033): what only some answers would otherwise wait
// for, so that their time cannot tell them apart — a reset link for an account that exists, the rows of a new
// account. The work is in memory: a process that dies just after answering loses it (the person asks again).

export type Task = () => Promise<void>;

/**
 * Runs tasks once the answer of the request that scheduled them is out. A task starts at the event loop's check
 * phase (`setImmediate`): the answer is handed to the socket in the promise chain that ends its request, before.
 * A failure is reported to `onError` (the log); `settled` waits for every task scheduled, for a clean shutdown.
 */
export class AfterAnswer {
  private readonly running = new Set<Promise<void>>();

  /** `start` begins a task: the check phase unless a test holds tasks to begin them when it chooses. */
  constructor(
    private readonly onError: (error: unknown) => void,
    private readonly start: (begin: () => void) => void = setImmediate,
  ) {}

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
