/** How far a name typed from memory is from one it may have meant, for "did you mean" hints. */
import { distance } from 'fastest-levenshtein';

/**
 * The typing slips (a letter wrong, missing or extra) between what was typed and a name it may
 * have meant, or undefined past those tolerated: two in a name of 6 characters or more, one in a
 * shorter one, where two would reach unrelated words. The distance is at least the difference in
 * length, so a long input is not compared at all.
 */
export function slipsBetween(typed: string, wanted: string): number | undefined {
  const allowed = typed.length >= 6 ? 2 : 1;
  if (Math.abs(typed.length - wanted.length) > allowed) return undefined;
  const edits = distance(typed, wanted);
  return edits <= allowed ? edits : undefined;
}

/** The names within typing slips of `typed`, nearest first. */
export function nearestNames(typed: string, names: readonly string[]): string[] {
  return names
    .map((name) => ({ name, slips: slipsBetween(typed, name) }))
    .filter((n): n is { name: string; slips: number } => n.slips !== undefined)
    .sort((a, b) => a.slips - b.slips)
    .map((n) => n.name);
}

/** ` Did you mean A or B?` for the sentence of a refusal, or nothing when nothing is near. */
export function askIfMeant(near: readonly string[]): string {
  return near.length ? ` Did you mean ${near.join(' or ')}?` : '';
}
