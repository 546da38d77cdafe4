/** Reads the API key from `Authorization: Bearer` or `X-API-Key` (docs/api.md, "Conventions": authentication). */
import type { IncomingHttpHeaders } from 'node:http';

export type Credential = { kind: 'none' } | { kind: 'key'; secret: string } | { kind: 'malformed' };

const MAX_LENGTH = 200;

export function readCredential(headers: IncomingHttpHeaders): Credential {
  const auth = headers.authorization;
  const apiKey = headers['x-api-key'];
  if (auth !== undefined) {
    const match = /^\s*bearer\s+(\S+)\s*$/i.exec(auth.length > MAX_LENGTH ? '' : auth);
    return match ? { kind: 'key', secret: match[1] } : { kind: 'malformed' };
  }
  if (apiKey !== undefined) {
    const value = Array.isArray(apiKey) ? apiKey[0] : apiKey;
    return value.length > 0 && value.length <= MAX_LENGTH
      ? { kind: 'key', secret: value.trim() }
      : { kind: 'malformed' };
  }
  return { kind: 'none' };
}
