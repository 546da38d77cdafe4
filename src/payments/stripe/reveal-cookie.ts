/**
 * The second look at a bought key: the first display of a card purchase's key sets a cookie
 * that holds the key sealed (AES-256-GCM, bound to the checkout session) under a key derived
 * from the server's key pepper. Only the browser that saw the key can show it again, for 10
 * minutes; nothing of it is stored on the server.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const REVEAL_COOKIE = 'mod97_card_reveal';
/** How long the same browser may see a bought key again after its first display. */
export const REVEAL_AGAIN_MS = 10 * 60_000;

/**
 * The token of the browser that started a checkout which makes a key: set with the checkout's
 * answer (only its keyed hash is stored), so that when the first display of the key is lost on
 * the way, with the cookie above, that browser can still see the key again (a new secret).
 */
export const BUYER_COOKIE = 'mod97_card_buyer';
/** As long as a checkout can be paid (Stripe's 24 hours), and the 10 minutes after its display. */
export const BUYER_COOKIE_SECONDS = 24 * 3600 + REVEAL_AGAIN_MS / 1000;

/** `derive(label)` is the server's keyed hash (HMAC-SHA256, hex): the cookie key never leaves the server. */
const cookieKey = (derive: (label: string) => string): Buffer =>
  Buffer.from(derive('mod97 card reveal cookie v1'), 'hex').subarray(0, 32);

export function sealReveal(
  derive: (label: string) => string,
  sessionId: string,
  secret: string,
  until: number,
): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cookieKey(derive), iv);
  cipher.setAAD(Buffer.from(sessionId));
  const body = Buffer.concat([cipher.update(JSON.stringify({ s: secret, u: until })), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The key the cookie holds for this session, or null when it is absent, altered, for another session or expired. */
export function openReveal(
  derive: (label: string) => string,
  sessionId: string,
  cookie: string | undefined,
  now: number,
): string | null {
  if (!cookie) return null;
  try {
    const raw = Buffer.from(cookie, 'base64url');
    if (raw.length < 12 + 16 + 2) return null;
    const decipher = createDecipheriv('aes-256-gcm', cookieKey(derive), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(sessionId));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString();
    const { s, u }: { s?: unknown; u?: unknown } = JSON.parse(text);
    return typeof s === 'string' && typeof u === 'number' && now < u ? s : null;
  } catch {
    return null;
  }
}

/** The value of the cookie `name` (REVEAL_COOKIE, BUYER_COOKIE) in a Cookie header. */
export function cookieOf(name: string, header: string | undefined): string | undefined {
  return new RegExp(`(?:^|;\\s*)${name}=([^;]+)`).exec(header ?? '')?.[1];
}
