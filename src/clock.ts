/** Milliseconds since the epoch. Injected everywhere so tests can move time. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

const DAY_MS = 86_400_000;
// Every request asks for the day and month; formatting a Date each time shows in profiles.
let cachedDayStart = NaN;
let cachedDay = '';

/** UTC calendar day, `YYYY-MM-DD`. */
export function dayOf(ms: number): string {
  const start = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
  if (start !== cachedDayStart) {
    cachedDay = new Date(start).toISOString().slice(0, 10);
    cachedDayStart = start;
  }
  return cachedDay;
}

/** UTC calendar month, `YYYY-MM`. */
export const monthOf = (ms: number): string => dayOf(ms).slice(0, 7);

/** Start of the next UTC day, in milliseconds. */
export const nextDayStartMs = (ms: number): number => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS) + DAY_MS;

/** Start of the next UTC month, in milliseconds. */
export function nextMonthStartMs(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** An ISO 8601 time in whole seconds with a `Z`, as the API writes its times (the card routes too). */
export const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Start of the next UTC day, ISO 8601 with a `Z`. */
export const nextDayStart = (ms: number): string => isoSeconds(nextDayStartMs(ms));

/** Start of the next UTC month, ISO 8601 with a `Z`. */
export const nextMonthStart = (ms: number): string => isoSeconds(nextMonthStartMs(ms));
