/**
 * The keyed hash of each presented API key, remembered for a short while: the HMAC is the
 * largest single cost of an authenticated call after the quota write (docs/benchmarks.md), and a
 * client sends the same key again and again.
 *
 * What is remembered is never the secret itself (docs/security.md, "Secrets"): each entry is
 * found by a SHA-256 of the secret under a random key of this process's own, made at start and
 * never written anywhere, which costs a fifth of the HMAC (one call, no HMAC object). The map
 * holds at most 2 × MAX entries, each living at most two periods. What it answers is only the
 * stored hash: a rotated or revoked key is still refused at once, because the store is asked for
 * that hash on every call.
 */
import { hash, randomBytes } from 'node:crypto';

export const MAX = 10_000;
export const PERIOD_MS = 60_000;

export class SecretHashes {
  // Two generations: a lookup looks in both, a miss or an old hit goes into the current one,
  // and every period (or when the current one is full) the older generation is dropped whole.
  private current = new Map<string, string>();
  private previous = new Map<string, string>();
  private rotatedAt: number;
  private readonly processKey = randomBytes(32).toString('hex');

  constructor(
    private readonly hash: (secret: string) => string,
    private readonly now: () => number = Date.now,
  ) {
    this.rotatedAt = now();
  }

  hashOf(secret: string): string {
    const now = this.now();
    if (now - this.rotatedAt >= PERIOD_MS || this.current.size >= MAX) this.rotate(now);
    const id = hash('sha256', this.processKey + secret, 'base64');
    let stored = this.current.get(id);
    if (stored !== undefined) return stored;
    stored = this.previous.get(id) ?? this.hash(secret);
    this.current.set(id, stored);
    return stored;
  }

  private rotate(now: number): void {
    // Two periods without a call empty both generations.
    this.previous = now - this.rotatedAt >= 2 * PERIOD_MS ? new Map() : this.current;
    this.current = new Map();
    this.rotatedAt = now;
  }
}
