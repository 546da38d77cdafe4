/**
 * The QR version of a QR-bill code: the smallest that holds the payload, stepping past the
 * versions in which the Swiss cross passes for an alignment pattern.
 *
 * Why: a decoder samples a code through a grid that it corrects at each alignment pattern. To
 * find one, it slides a 5 × 5 template around where the pattern should be and keeps the best
 * match if it is close enough (ZBar, Debian's zbarimg: within 2 modules, at most 6 of the 25
 * modules wrong). The guidelines fix the cross at 7/46 of the code, so its size in modules
 * follows the version. In versions 7 to 13 the cross is 7 to 11 modules across and covers the
 * central alignment pattern; its black square and white arms, about 1.5 modules wide, match the
 * template half a module to a module off the centre (4 or 5 of 25 modules wrong), and the grid of
 * the four central cells is warped past what error correction M restores. In versions 22, 24 and
 * 26 the covered pattern lies 2 modules off the cross's centre, where its arms and corners match
 * in the same way. ZBar then fails on these codes (on versions 8 to 12 at every scale tried):
 * the cause of ZBar's open issues 121, 167 and 216 about QR-bills, as a typical bill's payload
 * (200 to 330 bytes) takes version 10 to 13.
 *
 * Every other version reads, measured by drawing versions 5 to 40 with the cross at 2 to 8 px a
 * module (docs/api.md): 1 to 6, 14 to 20 and 28 to 34 have no alignment pattern under the cross,
 * and in the rest the cross is 15 modules and more across with the covered pattern deep inside,
 * where its 5 × 5 neighbourhood is mostly white cross and matches nothing. The standard fixes the
 * code's printed size (46 × 46 mm), not its version: a version 14 code has modules of 0.63 mm.
 */
import { smallestVersion } from './qr-matrix.ts';

/** Versions in which the cross is taken for an alignment pattern (found by zbarimg, see above). */
const CROSS_MIMICS_ALIGNMENT = new Set([7, 8, 9, 10, 11, 12, 13, 22, 24, 26]);

export function crossSafeVersion(payload: string): number {
  let version = smallestVersion(Buffer.byteLength(payload, 'utf8'));
  while (CROSS_MIMICS_ALIGNMENT.has(version)) version++;
  return version;
}
