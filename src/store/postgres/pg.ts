import type { Sql } from './sql.ts';

/** What each engine file receives: the pool and the two retry policies of retry.ts. */
export interface Pg {
  sql: Sql;
  idempotent<T>(run: () => Promise<T>): Promise<T>;
  once<T>(run: () => Promise<T>): Promise<T>;
}
