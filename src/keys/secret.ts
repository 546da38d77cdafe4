import { createHmac, randomBytes } from 'node:crypto';

export const KEY_PATTERN = /^ifk_[0-9a-f]{64}$/;
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
