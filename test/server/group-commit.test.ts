/** Group commit: which items share a commit, when each submitter hears back, and failures. */
import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../../server/store/group-commit.ts';

/** A commit that keeps every batch it was given and answers each item doubled, after `delayMs`. */
function recorder(delayMs = 0, refuse: (item: number) => boolean = () => false) {
  const batches: number[][] = [];
  const committed: number[] = [];
  const commit = async (items: readonly number[]) => {
    batches.push([...items]);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (items.some(refuse)) throw new Error(`refused ${items.filter(refuse).join(',')}`);
    committed.push(...items);
    return items.map((item) => item * 2);
  };
  return { batches, committed, commit };
}

describe('group commit', () => {
  it('commits what is submitted together as one batch, and answers each submitter its own result', async () => {
    const { batches, commit } = recorder();
    const group = createGroupCommit(commit, { windowMs: 0, maxBatch: 100 });
    const results = await Promise.all([1, 2, 3, 4, 5].map((item) => group.submit(item)));
    expect(results).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([[1, 2, 3, 4, 5]]);
  });

  it('answers nobody before the commit holding their item has returned', async () => {
    const { committed, commit } = recorder(30);
    const group = createGroupCommit(commit, { windowMs: 0, maxBatch: 100 });
    const seen: number[][] = [];
    await Promise.all([1, 2, 3].map((item) => group.submit(item).then(() => seen.push([...committed]))));
    expect(seen).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });

  it('gathers what arrives while a commit runs into the next one', async () => {
    const { batches, commit } = recorder(20);
    const group = createGroupCommit(commit, { windowMs: 0, maxBatch: 100 });
    const first = group.submit(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = [2, 3, 4].map((item) => group.submit(item));
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('waits windowMs after the first item for others', async () => {
    const { batches, commit } = recorder();
    const group = createGroupCommit(commit, { windowMs: 30, maxBatch: 100 });
    const first = group.submit(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([first, group.submit(2)]);
    expect(batches).toEqual([[1, 2]]);
  });

  it('commits at most maxBatch items at once', async () => {
    const { batches, commit } = recorder();
    const group = createGroupCommit(commit, { windowMs: 0, maxBatch: 4 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => group.submit(i)));
    expect(batches.map((batch) => batch.length)).toEqual([4, 4, 2]);
  });

  it('retries a refused batch item by item, so only the refused item fails', async () => {
    const { committed, commit } = recorder(0, (item) => item === 3);
    const group = createGroupCommit(commit, { windowMs: 0, maxBatch: 100 });
    const results = await Promise.allSettled([1, 2, 3, 4].map((item) => group.submit(item)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('refused 3');
    expect(committed).toEqual([1, 2, 4]);
  });

  it("fails the whole batch at once, without retrying item by item, when the error is not an item's (the store is down)", async () => {
    const batches: number[][] = [];
    const down = Object.assign(new Error('Query read timeout'), { isItemError: false });
    const group = createGroupCommit(
      async (items: readonly number[]) => {
        batches.push([...items]);
        throw down;
      },
      {
        windowMs: 0,
        maxBatch: 100,
        isItemError: (error) => (error as { isItemError?: boolean }).isItemError !== false,
      },
    );
    const results = await Promise.allSettled([1, 2, 3, 4].map((item) => group.submit(item)));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(results.map((result) => (result as PromiseRejectedResult).reason)).toEqual([down, down, down, down]);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });
  it('drains: resolves once everything submitted has been committed', async () => {
    const { committed, commit } = recorder(10);
    const group = createGroupCommit(commit, { windowMs: 5, maxBatch: 100 });
    await group.drain();
    void group.submit(1);
    void group.submit(2);
    await group.drain();
    expect(committed).toEqual([1, 2]);
  });
});
