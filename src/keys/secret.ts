import { createHmac, randomBytes } from 'node:crypto';
import { DomainError } from '../errors.ts';

export const KEY_PATTERN = /^ifk_[0-9a-f]{64}$/;
/** KEY_PATTERN in words, for people: the pages and the 401 for a malformed key say it. */
export const KEY_SHAPE_TEXT = 'A key is ifk_ followed by 64 lower-case hexadecimal characters (0-9 and a-f).';
/** A key-shaped value anywhere in a string (URLs, bodies, log lines). */
export const KEY_ANYWHERE = /ifk_[0-9a-fA-F]{64}/;

interface NewSecret {
  secret: string;
  prefix: string;
}

export function newSecret(): NewSecret {
  const secret = `ifk_${randomBytes(32).toString('hex')}`;
  return { secret, prefix: secret.slice(0, 8) };
}

/** Keys and codes are stored only as this keyed hash; lookups go by the hash. */
export const keyedHash = (pepper: string, value: string): string =>
  createHmac('sha256', pepper).update(value).digest('hex');

/** The database setting holding `pepperCheck` of the pepper its keys and codes were hashed with. */
const PEPPER_CHECK_SETTING = 'key_pepper_check';
const pepperCheck = (pepper: string): string => keyedHash(pepper, 'mod97 key pepper check');

/**
 * Refuses a pepper other than the one the database's keys were hashed with: every key would be
 * 401 and every mailed code wrong, silently. The check value (an HMAC of a fixed string, which
 * tells nothing of the pepper) is written at the first start and compared at every later one.
 */
export async function checkPepper(
  store: { settingOrInit(name: string, value: string): Promise<string> },
  pepper: string,
  configured: boolean,
): Promise<void> {
  const expected = pepperCheck(pepper);
  const stored = await store.settingOrInit(PEPPER_CHECK_SETTING, expected);
  if (stored === expected) return;
  throw new DomainError(
    'invalid_config',
    configured
      ? "MOD97_KEY_PEPPER differs from the pepper this database's keys were hashed with: every existing key would be refused (401) and every mailed code would fail. Start with the pepper the keys were made with (or unset MOD97_KEY_PEPPER if they were made without it)."
      : "MOD97_KEY_PEPPER is not set, but this database's keys were hashed with a pepper that was: every existing key would be refused (401). Start with that MOD97_KEY_PEPPER.",
  );
}
