/** The row fields a wire field may be written to: those whose type takes every value it sends. */
type RowFieldFor<Value, Row> = {
  [R in keyof Row]-?: Exclude<Value, undefined> extends Row[R] ? R : never;
}[keyof Row];

/**
 * The changes of a partial update (`PUT`/`PATCH` with the fields sent): each field of `dto` that
 * is not undefined, under its row name (`names`: wire name → row name, in the order to write);
 * null is kept, as it clears a nullable field.
 */
export function sentFields<Wire extends object, Row>(
  dto: Wire,
  names: { [K in keyof Wire]?: RowFieldFor<Wire[K], Row> },
): Partial<Row> {
  const changes: Partial<Row> = {};
  for (const [wire, row] of Object.entries(names) as [keyof Wire, keyof Row][]) {
    const value = dto[wire];
    if (value !== undefined) changes[row] = value as unknown as Row[keyof Row];
  }
  return changes;
}
