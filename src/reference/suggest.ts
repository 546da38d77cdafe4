/**
 * Suggestions for an RF or Belgian reference whose check fails (docs/api.md, "POST
 * /v1/reference/validate"): the references one substitution or one swap of neighbours away whose
 * check holds, by the position of the change, leftmost first (so a mistyped check digit comes
 * first), at most 5. A reference has at most 25 characters, so trying every edit (some 900
 * checks of a 50-digit number) is cheap and needs no arithmetic shortcut.
 */
import { TYPES, type ReferenceType } from './types.ts';

export const MAX_REFERENCE_SUGGESTIONS = 5;

const DIGITS = '0123456789';
const ALNUM = `${DIGITS}ABCDEFGHIJKLMNOPQRSTUVWXYZ`;

/** Types whose two check digits make one edit away a useful guess; the others' single digit is not. */
const SUGGESTED: ReadonlySet<ReferenceType> = new Set(['rf', 'be_ogm']);

export function suggestReferences(reference: string, type: ReferenceType): string[] {
  if (!SUGGESTED.has(type)) return [];
  const spec = TYPES[type];
  const holds = (candidate: string) => spec.allows(candidate) && !spec.shapeFault?.(candidate) && spec.holds(candidate);
  const found: string[] = [];
  const add = (candidate: string) => {
    if (found.length < MAX_REFERENCE_SUGGESTIONS && !found.includes(candidate) && holds(candidate))
      found.push(candidate);
  };
  // RF's first two characters are the prefix, not an edit anyone makes by mistake.
  const first = type === 'rf' ? 2 : 0;
  for (let i = first; i < reference.length && found.length < MAX_REFERENCE_SUGGESTIONS; i++) {
    // RF's check digits and every Belgian character are digits; RF's body is letters and digits.
    const alphabet = type === 'rf' && i >= 4 ? ALNUM : DIGITS;
    for (const c of alphabet) {
      if (c !== reference[i]) add(reference.slice(0, i) + c + reference.slice(i + 1));
    }
    const next = reference[i + 1];
    if (next !== undefined && next !== reference[i]) {
      add(reference.slice(0, i) + next + reference[i] + reference.slice(i + 2));
    }
  }
  return found;
}
