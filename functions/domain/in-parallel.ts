/**
 * Runs `work` on every item with at most `limit` running at once (a pool of workers taking the
 * next item), for the jobs' and adapters' bounded concurrency against DynamoDB and TronGrid.
 * Rejects with the first error, as Promise.all does.
 */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
