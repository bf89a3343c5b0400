const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it answers a value (not undefined) and returns it; after `timeoutMs` throws
 * "timed out after … ms: <describe>". `describe` may be a function, to report the state at the end.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  describe: string | (() => string),
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms: ${typeof describe === 'string' ? describe : describe()}`,
      );
    }
    await sleep(intervalMs);
  }
}
