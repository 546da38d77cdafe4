/** Reads the API key from `Authorization: Bearer` or `X-API-Key` (docs/api.md, "Conventions": authentication). */
import type { IncomingHttpHeaders } from 'node:http';
import { KEY_PATTERN, KEY_SHAPE_TEXT } from '../keys/secret.ts';

/**
 * `refused`: a credential header was sent but holds no usable key. Its message says which case
 * it is, so a caller fixes the right thing (an unset variable, a lost `Bearer`, a cut paste);
 * it never repeats what was sent.
 */
export type Credential = { kind: 'none' } | { kind: 'key'; secret: string } | { kind: 'refused'; message: string };

const MAX_LENGTH = 200;

export const CREDENTIAL_MESSAGES = {
  empty: (header: string) =>
    `No API key was sent: the ${header} header is empty. Send Authorization: Bearer <API_KEY>; if the key comes from a variable such as MOD97_API_KEY, check that it is set.`,
  noBearer:
    'The Authorization header does not start with Bearer: send Authorization: Bearer <API_KEY>, with the word Bearer and a space before the key (or send the key alone as X-API-Key).',
  malformed: (token: string) =>
    KEY_PATTERN.test(token.toLowerCase())
      ? 'The API key is malformed: its letters are upper case, and a key is ifk_ followed by 64 lower-case hexadecimal characters. Send it exactly as it was shown, in lower case.'
      : `The API key is malformed. ${KEY_SHAPE_TEXT} The key sent has ${token.length} characters; paste the whole key, with nothing around it.`,
  unknown: 'The API key is unknown, rotated or revoked: it is shaped like a key, but no current key matches it.',
  twoKeys:
    'Two different API keys were sent, in Authorization and in X-API-Key: send one key, in one of the two headers, so that it is clear which key the call is for.',
} as const;

const refused = (message: string): Credential => ({ kind: 'refused', message });
const NONE: Credential = { kind: 'none' };

/** The token as a key, or why it is not one. */
function keyOrMalformed(token: string): Credential {
  return KEY_PATTERN.test(token) ? { kind: 'key', secret: token } : refused(CREDENTIAL_MESSAGES.malformed(token));
}

/**
 * Both headers are judged when both are sent, neither ignored (docs/api.md, "Conventions":
 * authentication): either one holding no usable key is refused, and so are two different keys,
 * since which one the call is for is not known; the same key in both is that key.
 */
export function readCredential(headers: IncomingHttpHeaders): Credential {
  const auth = headers.authorization === undefined ? NONE : fromAuthorization(headers.authorization);
  const apiKey = headers['x-api-key'] === undefined ? NONE : fromApiKey(headers['x-api-key']);
  if (auth.kind === 'refused') return auth;
  if (apiKey.kind === 'refused') return apiKey;
  if (auth.kind === 'key' && apiKey.kind === 'key' && auth.secret !== apiKey.secret)
    return refused(CREDENTIAL_MESSAGES.twoKeys);
  return auth.kind === 'key' ? auth : apiKey;
}

function fromAuthorization(auth: string): Credential {
  if (auth.length > MAX_LENGTH) return refused(CREDENTIAL_MESSAGES.malformed(auth));
  const value = auth.trim();
  const bearer = /^bearer(?:\s+(.*))?$/is.exec(value);
  if (bearer) {
    const token = (bearer[1] ?? '').trim();
    if (token === '') return refused(CREDENTIAL_MESSAGES.empty('Authorization'));
    return /\s/.test(token) ? refused(CREDENTIAL_MESSAGES.malformed(token)) : keyOrMalformed(token);
  }
  return value === '' ? refused(CREDENTIAL_MESSAGES.empty('Authorization')) : refused(CREDENTIAL_MESSAGES.noBearer);
}

function fromApiKey(apiKey: string | string[]): Credential {
  const value = (Array.isArray(apiKey) ? (apiKey[0] ?? '') : apiKey).trim();
  if (value === '') return refused(CREDENTIAL_MESSAGES.empty('X-API-Key'));
  return value.length > MAX_LENGTH ? refused(CREDENTIAL_MESSAGES.malformed(value)) : keyOrMalformed(value);
}
