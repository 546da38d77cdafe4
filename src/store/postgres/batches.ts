/**
 * Group commit across turns of the event loop: what arrives while a batch is in flight waits and
 * goes out with the next one. Under load each batch grows to the calls that arrived during one
 * round trip, so PostgreSQL pays its fixed cost per statement (parse of the arrays, locks, one
 * durable commit) once for many calls rather than once per turn; with no batch in flight a call
 * goes out at the end of its own turn, as before. A full batch never waits: when PostgreSQL is
 * slow or away (each statement retried for seconds), calls must not queue behind one another.
 */
/** A call waiting in a batch for its answer: the batch's `send` settles it. */
export interface Waiting<R> {
  resolve: (answer: R) => void;
  reject: (err: unknown) => void;
}

export class Batches<T> {
  private queue: T[] = [];
  private inFlight = 0;

  /** `send` settles every item of its batch itself and never rejects. */
  constructor(
    private readonly send: (batch: T[]) => Promise<void>,
    private readonly max: number,
    private readonly concurrency = 1,
  ) {}

  add(item: T): void {
    const queued = this.queue.push(item);
    if ((queued === 1 && this.inFlight < this.concurrency) || queued === this.max) setImmediate(() => this.next());
  }

  private next(): void {
    while (this.queue.length >= this.max || (this.queue.length > 0 && this.inFlight < this.concurrency)) {
      const batch = this.queue.splice(0, this.max);
      this.inFlight++;
      void this.send(batch).finally(() => {
        this.inFlight--;
        this.next();
      });
    }
  }
}
