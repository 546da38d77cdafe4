/**
 * The IETF httpapi rate-limit headers (docs/api.md, "Rate-limit headers"), next to X-Quota-*:
 * `RateLimit-Limit`, `RateLimit-Remaining` and, where the balance resets (monthly bases, the
 * no-key trial's UTC day), `RateLimit-Reset` in seconds until it does; and `Retry-After` on 429s,
 * whose limits are all per UTC day.
 */
import type { FastifyReply } from 'fastify';
import { nextDayStartMs, nextMonthStartMs } from '../clock.ts';
import { LIMITS } from '../plans.ts';
import type { Basis } from '../records.ts';

/** Whole seconds until `at`, rounded up so that a client waiting that long finds it reset. */
const secondsUntil = (at: number, now: number): number => Math.max(Math.ceil((at - now) / 1000), 0);

export const secondsUntilNextDay = (now: number): number => secondsUntil(nextDayStartMs(now), now);

function setRateLimit(reply: FastifyReply, limit: number, used: number, resetSeconds: number | null): void {
  reply.header('RateLimit-Limit', limit);
  reply.header('RateLimit-Remaining', Math.max(limit - used, 0));
  if (resetSeconds !== null) reply.header('RateLimit-Reset', resetSeconds);
}

/** A key's balance: only a monthly basis resets (lifetime and credits balances never do). */
export function setKeyRateLimit(reply: FastifyReply, basis: Basis, limit: number, used: number, now: number): void {
  setRateLimit(reply, limit, used, basis === 'monthly' ? secondsUntil(nextMonthStartMs(now), now) : null);
}

/** The no-key trial of the caller's network: 25 a UTC day. */
export function setTrialRateLimit(reply: FastifyReply, used: number, now: number): void {
  setRateLimit(reply, LIMITS.trialPerDay, used, secondsUntilNextDay(now));
}
