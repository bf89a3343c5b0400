/**
 * What `call` rejects with, when `guard` accepts it (typed so); a call that resolves, or rejects
 * with anything else, fails the test. E.g. `await rejectionOf(client.GET(…), isApiError)`.
 */
export async function rejectionOf<E>(
  call: Promise<unknown>,
  guard: (error: unknown) => error is E,
): Promise<E> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!guard(error)) throw new Error(`Expected a rejection ${guard.name} accepts, got ${String(error)}`);
  return error;
}
