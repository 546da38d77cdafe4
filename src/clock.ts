/** Milliseconds since the epoch. Injected everywhere so tests can move time. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** UTC calendar month, `YYYY-MM`. */
export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** UTC calendar day, `YYYY-MM-DD`. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Start of the next UTC day, ISO 8601 with a `Z`. */
export function nextDayStart(ms: number): string {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString().replace('.000Z', 'Z');
}

/** Start of the next UTC month, ISO 8601 with a `Z`. */
export function nextMonthStart(ms: number): string {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().replace('.000Z', 'Z');
}
