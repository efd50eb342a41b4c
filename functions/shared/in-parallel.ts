/**
 * Runs `work` on every item with at most `limit` running at once (a pool of workers taking the
 * next item), for the jobs' and adapters' bounded concurrency against DynamoDB and TronGrid.
 * Once one item fails no further item is started, and the call rejects with that first error when
 * the items already under way have settled: no work is left running behind a failed call (a
 * Lambda may be frozen with it), and a caller never takes a partial result for the whole.
 */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      try {
        await work(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
