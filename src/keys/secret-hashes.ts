/**
 * The keyed hash of each presented API key, remembered for a short while: the HMAC is the
 * largest single cost of an authenticated call after the quota write (docs/benchmarks.md), and a
 * client sends the same key again and again.
 *
 * The trade-off (docs/security.md, "Secrets"): a secret presented in the last minute or two
 * stays in this process's memory as a map key after its request ends. Nothing is written
 * anywhere; the map holds at most 2 × MAX secrets; an entry lives at most two periods. What the
 * map answers is only the hash: a rotated or revoked key is still refused at once, because the
 * store is asked for that hash on every call.
 */
export const MAX = 10_000;
export const PERIOD_MS = 60_000;

export class SecretHashes {
  // Two generations: a lookup looks in both, a miss or an old hit goes into the current one,
  // and every period (or when the current one is full) the older generation is dropped whole.
  private current = new Map<string, string>();
  private previous = new Map<string, string>();
  private rotatedAt: number;

  constructor(
    private readonly hash: (secret: string) => string,
    private readonly now: () => number = Date.now,
  ) {
    this.rotatedAt = now();
  }

  hashOf(secret: string): string {
    const now = this.now();
    if (now - this.rotatedAt >= PERIOD_MS || this.current.size >= MAX) this.rotate(now);
    let hash = this.current.get(secret);
    if (hash !== undefined) return hash;
    hash = this.previous.get(secret) ?? this.hash(secret);
    this.current.set(secret, hash);
    return hash;
  }

  private rotate(now: number): void {
    // Two periods without a call empty both generations.
    this.previous = now - this.rotatedAt >= 2 * PERIOD_MS ? new Map() : this.current;
    this.current = new Map();
    this.rotatedAt = now;
  }
}
