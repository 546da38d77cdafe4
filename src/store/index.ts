import { DomainError } from '../errors.ts';
import { openSqliteStore } from './sqlite/index.ts';
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
