/**
 * The one order in which statements lock several rows, so that two of them never wait for each
 * other's rows in turn: JavaScript's order of UTF-16 code units, which for these ASCII texts is
 * PostgreSQL's `COLLATE "C"`.
 */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
