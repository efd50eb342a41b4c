/**
 * Polls `read` until `done` holds or the time is up, and returns the last value either way so the
 * test's own assertion says what was wrong. Generous by default: the chain jobs share two cores
 * with every other test file in CI.
 */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
