import { existsSync } from 'node:fs';
import { DomainError } from '../errors.ts';
import { openSqliteStore, sqlitePath } from './sqlite/index.ts';
import type { Store } from './types.ts';

/** Chooses the engine from `MOD97_DATABASE_URL`. */
export async function openStore(url: string): Promise<Store> {
  if (url.startsWith('sqlite:')) return openSqliteStore(url);
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { openPostgresStore } = await import('./postgres/index.ts');
    return openPostgresStore(url);
  }
  throw new DomainError('invalid_config', 'MOD97_DATABASE_URL must start with sqlite: or postgres://');
}

/** Whether `url` names a store that exists, found without creating one (`mod97 data list`). */
export async function storeExists(url: string): Promise<boolean> {
  if (url.startsWith('sqlite:')) {
    const path = sqlitePath(url);
    return path === ':memory:' || existsSync(path);
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { postgresStoreExists } = await import('./postgres/index.ts');
    return postgresStoreExists(url);
  }
  throw new DomainError('invalid_config', 'MOD97_DATABASE_URL must start with sqlite: or postgres://');
}
