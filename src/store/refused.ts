/** Thrown inside a transaction to roll it back when one of several counters refuses. */
export class Refused extends Error {}

/** The transaction's result, or null when a `Refused` rolled it back. */
export async function unlessRefused<T>(run: () => T | Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof Refused) return null;
    throw err;
  }
}
