/**
 * Group commit (docs/decisions/server-throughput.md): writes submitted while a commit runs, or
 * within `windowMs` of the first one, are made durable together by one `commit(batch)` call
 * (one transaction, one fsync or one PostgreSQL round trip). Each submitter's promise settles
 * only after the commit that holds its item has returned, so "acknowledged" still means
 * "durable". One commit runs at a time; a failed batch is retried item by item, so one bad
 * item fails alone (unless `isItemError` says the failure is nobody's: then all fail at once).
 */

export type GroupCommitOptions = {
  /** How long the first item of a batch waits for company; 0: only what arrives while the previous commit runs. */
  readonly windowMs: number;
  /** Items per commit, at most; more wait for the next one. */
  readonly maxBatch: number;
  /**
   * Whether a failed commit may be an item's fault, so worth retrying item by item (default: always).
   * When it is not (the database does not answer), every item of the batch fails with it at once.
   */
  readonly isItemError?: (error: unknown) => boolean;
};

export type GroupCommit<Item, Result> = {
  submit(item: Item): Promise<Result>;
  /** Resolves once every item submitted so far has been committed or refused. */
  drain(): Promise<void>;
};

type Pending<Item, Result> = {
  readonly item: Item;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
};

export const defaultMaxBatch = 512;

export function createGroupCommit<Item, Result>(
  commit: (items: readonly Item[]) => Promise<readonly Result[]> | readonly Result[],
  options: GroupCommitOptions,
): GroupCommit<Item, Result> {
  let queue: Pending<Item, Result>[] = [];
  let running: Promise<void> | null = null;
  let scheduled = false;
  const idle: (() => void)[] = [];

  async function commitAll(batch: readonly Pending<Item, Result>[]): Promise<void> {
    try {
      const results = await commit(batch.map((pending) => pending.item));
      for (const [index, pending] of batch.entries()) pending.resolve(results[index]!);
    } catch (error) {
      if (batch.length === 1 || options.isItemError?.(error) === false) {
        for (const pending of batch) pending.reject(error);
        return;
      }
      // Something in the batch was refused: commit each item alone so the others still succeed.
      for (const pending of batch) await commitAll([pending]);
    }
  }

  function schedule(delayMs: number): void {
    if (scheduled || running) return;
    scheduled = true;
    const start = () => {
      scheduled = false;
      run();
    };
    if (delayMs > 0) setTimeout(start, delayMs);
    else setImmediate(start);
  }

  function run(): void {
    if (running || queue.length === 0) return;
    const batch = queue.slice(0, options.maxBatch);
    queue = queue.slice(batch.length);
    running = commitAll(batch).finally(() => {
      running = null;
      // What arrived during this commit has waited long enough: it goes at once.
      if (queue.length > 0) schedule(0);
      else for (const resolve of idle.splice(0)) resolve();
    });
  }

  return {
    submit(item) {
      return new Promise<Result>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (queue.length >= options.maxBatch) schedule(0);
        else schedule(options.windowMs);
      });
    },
    drain() {
      if (!running && !scheduled && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
