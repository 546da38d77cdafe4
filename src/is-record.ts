/** A JSON object (not an array, not null): the guard for values read from JSON or an SDK. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
