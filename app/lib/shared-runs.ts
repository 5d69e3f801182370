/**
 * Runs of one piece of work that callers share: a call while a run is under way waits for the next
 * run, which starts when that one ends and serves every call made meanwhile. Each call is thus
 * covered by a run that started after it, and a burst of calls costs two runs, not one each.
 */
export class SharedRuns {
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(private readonly work: () => Promise<void>) {}

  run(): Promise<void> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .then(
        () => {},
        () => {},
      )
      .then(() => {
        this.next = null;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<void> {
    const run = this.work().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }
}
