/**
 * The row of a statement that always yields one (an aggregate, or an upsert's RETURNING): its
 * absence is a broken statement, not an answer, so it throws rather than reading a field of
 * undefined.
 */
export function theRow<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw new Error(`${what} returned no row`);
  return row;
}
