/** A service config of a test's own, from the variables it gives over the test defaults (never a shared one changed). */
import { type Config, type Env, readConfig } from '../../src/config.ts';

export const testConfig = (env: Env = {}): Config =>
  readConfig({ MOD97_DATABASE_URL: 'sqlite::memory:', MOD97_LOG_LEVEL: 'info', ...env });
