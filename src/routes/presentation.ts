/** Blocks that several data routes add to their answers: attribution and the trial block. */
import { dayOf, nextDayStart } from '../clock.ts';
import type { Caller } from '../http/caller.ts';
import { FREE_TIERS, LIMITS } from '../plans.ts';
import type { Services } from '../services.ts';
import { generateRoute } from '../api/keys.ts';

export function attributionFor(caller: Caller, services: Services) {
  if (caller.paidByX402) return {};
  const free = caller.key ? FREE_TIERS.has(caller.key.tier) : caller.trialUsed !== null;
  if (!free) return {};
  return {
    attribution: {
      text: 'Powered by mod97',
      url: services.config.publicUrl,
      note: 'Free-tier results shown to people must display "Powered by mod97" with this link. Results kept in a backend owe nothing.',
    },
  };
}

export function trialBlock(caller: Caller, services: Services) {
  if (caller.trialUsed === null) return {};
  const now = services.clock();
  return {
    trial: {
      calls_left_today: Math.max(LIMITS.trialPerDay - caller.trialUsed, 0),
      limit: LIMITS.trialPerDay,
      day: dayOf(now),
      resets_at: nextDayStart(now),
      get_key: { method: generateRoute.method, url: `${services.config.publicUrl}${generateRoute.url}` },
    },
  };
}
