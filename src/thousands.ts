/**
 * An integer with its thousands grouped by commas, as `toLocaleString('en-US')` writes it, without
 * ICU: the first locale-aware call of a process loads ICU's data, about 11 ms of CPU, which a
 * start should not spend on route titles (src/api/payments.ts).
 */
export function thousands(n: number): string {
  const grouped = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${grouped}` : grouped;
}

/** A count with its noun, singular for one: `1 row`, `3 rows`, `1 IBAN`. */
export const counted = (n: number, noun: string): string => `${n} ${n === 1 ? noun : `${noun}s`}`;
