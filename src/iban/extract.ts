/**
 * Finding IBANs in free text (docs/api.md, "Find IBANs in text"): invoices, e-mails, scanned
 * letters. A candidate is a registry country code, then exactly that country's length of
 * letters and digits, in electronic form (no separators) or print form (groups of four, each
 * followed by one space, no-break space or hyphen), in any case. It never spans a line break,
 * because no separator is one.
 *
 * What is listed:
 * - a candidate at the start of a word (after a character that is not a letter or digit, or
 *   right after `IBAN` / `IBAN:`) and at the end of one, whatever its verdict, when it has an
 *   IBAN's shape: check digits that are digits (or letters scanners read for digits) and at most
 *   two characters of the wrong class for the country's BBAN structure;
 * - a candidate that starts inside a word ("KontoDE89...") or is followed at once by letters
 *   ("...3000EUR", only where its last character must be a digit) only when it is valid, as
 *   found or after the OCR repair below: a run of letters and digits is otherwise too likely a
 *   reference or a token that happens to contain a country code.
 *
 * OCR reading: scanners confuse O/0, I/1, L/1, S/5, B/8 and Z/2, and a scanner that confuses a
 * pair does so throughout a line. When a candidate fails, every character of the wrong class
 * (at a position whose class the structure forbids for it) is read as its look-alike, all at
 * once; where a 1 stands for a letter, it may be I or L, so a few readings are tried. When
 * exactly one of them is valid, that IBAN is the repair, and the item lists every character read.
 * A candidate with more characters of the wrong class than an IBAN's shape allows is listed only
 * when such a reading repairs it.
 */
import { type CountrySpec, countryAt } from './registry.ts';

/** What a listed candidate needs from the validation: its verdict and suggestions. */
export interface Judged {
  valid: boolean;
  suggestions: string[];
}

/** One character read as its look-alike. */
export interface OcrReading {
  /** UTF-16 offset in the text of the character. */
  at: number;
  /** The character as found in the text. */
  found: string;
  /** The character it was read as. */
  read_as: string;
}

export interface OcrRepair extends OcrReading {
  /** The valid IBAN (electronic form) after the reading; `at`, `found`, `read_as` name its first character read. */
  iban: string;
  /** Every character read as its look-alike, in text order. */
  readings: OcrReading[];
}

export interface Found<R extends Judged> {
  /** The text as found, separators included. */
  match: string;
  /** UTF-16 offsets into the text; `end` exclusive. */
  start: number;
  end: number;
  /** The judge's verdict on the electronic form; with a repair, the repaired IBAN comes first in `suggestions`. */
  result: R;
  ocr: OcrRepair | null;
}

export interface Extraction<R extends Judged> {
  items: Found<R>[];
  /** More candidates were in the text than `max`: the list stops at `max`. */
  truncated: boolean;
}

export const MAX_EXTRACTED = 1000;

/** Characters of one class that scanners read for characters of the other. */
const AS_DIGIT: Readonly<Record<string, string>> = { O: '0', I: '1', L: '1', S: '5', B: '8', Z: '2' };
const AS_LETTER: Readonly<Record<string, readonly string[]>> = {
  '0': ['O'],
  '1': ['I', 'L'],
  '5': ['S'],
  '8': ['B'],
  '2': ['Z'],
};

/** Characters of the wrong class a candidate may hold and still have an IBAN's shape. */
const MAX_WRONG_CLASS = 2;

const isDigitCode = (c: number) => c >= 48 && c <= 57;
const isLetterCode = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAlnumCode = (c: number) => isDigitCode(c) || isLetterCode(c);
/** Space, no-break space, narrow no-break space, hyphen-minus, non-breaking hyphen. */
const isGroupSeparator = (c: number) => c === 32 || c === 0xa0 || c === 0x202f || c === 45 || c === 0x2011;

/** Bit of the class a character is in: 1 digit, 2 letter (as in CountrySpec.classes). */
const classOf = (c: number) => (isDigitCode(c) ? 1 : 2);
/** What position `i` of an IBAN of `spec` accepts: the check digits are digits, the rest the BBAN structure's. */
const acceptsAt = (spec: CountrySpec, i: number) => (i < 4 ? 1 : (spec.classes[i - 4] ?? 0));

interface Run {
  /** Electronic form, upper case. */
  iban: string;
  /** UTF-16 offset of each character of `iban` in the text. */
  offsets: number[];
  end: number;
  /** Letters follow at once ("...3000EUR"): the run ends inside a word. */
  glued: boolean;
}

/**
 * The candidate of `spec`'s length starting at `start`, in electronic or print form, ending at
 * the end of a word, or glued to letters where its last character must be a digit; or null.
 * (A digit after it would make it a longer number, never an IBAN.) Most letter pairs in prose
 * that are country codes fail within a few characters: reading allocates nothing, and the IBAN
 * and its offsets are built only for a whole candidate.
 */
function readRun(text: string, start: number, spec: CountrySpec): Run | null {
  const n = spec.length;
  let count = 0;
  let i = start;
  let print: boolean | null = null; // unknown until the first group boundary
  while (count < n) {
    if (count > 0 && count % 4 === 0) {
      const c = text.charCodeAt(i);
      if (print === null) print = isGroupSeparator(c) && isAlnumCode(text.charCodeAt(i + 1));
      if (print) {
        if (!isGroupSeparator(c)) return null;
        i++;
      }
    }
    if (!isAlnumCode(text.charCodeAt(i))) return null;
    count++;
    i++;
  }
  const glued = i < text.length && isAlnumCode(text.charCodeAt(i));
  if (glued && (isDigitCode(text.charCodeAt(i)) || spec.classes[spec.length - 5] !== 1)) return null;
  // Print form has exactly one separator after each group of four.
  const at = (k: number) => start + k + (print ? Math.floor(k / 4) : 0);
  const offsets: number[] = [];
  let iban = '';
  for (let group = 0; group < n; group += 4) {
    const last = Math.min(group + 4, n) - 1;
    for (let k = group; k <= last; k++) offsets.push(at(k));
    iban += text.slice(at(group), at(last) + 1);
  }
  return { iban: iban.toUpperCase(), offsets, end: i, glued };
}

/** Check digits that scanners could have misread, and a structure at most two characters off. */
function hasIbanShape(iban: string, spec: CountrySpec): boolean {
  let wrong = 0;
  for (let i = 2; i < iban.length; i++) {
    const c = iban.charCodeAt(i);
    if ((acceptsAt(spec, i) & classOf(c)) !== 0) continue;
    if (i < 4 && AS_DIGIT[iban.charAt(i)] === undefined) return false;
    if (++wrong > MAX_WRONG_CLASS) return false;
  }
  return true;
}

/** Readings of a 1 as I or L multiply: past this many, the candidate is left unread. */
const MAX_READINGS = 16;

interface Reading {
  iban: string;
  /** IBAN indexes of the characters read, and what each was read as. */
  changes: { index: number; readAs: string }[];
}

/**
 * Every character of the wrong class read as its look-alike, all at once: one reading, or a few
 * where a 1 stands for a letter (I or L). None when a character of the wrong class has no look-alike.
 */
function ocrReadings(iban: string, spec: CountrySpec): Reading[] {
  let readings: Reading[] = [{ iban: '', changes: [] }];
  let kept = 0;
  for (let i = 2; i < iban.length; i++) {
    const c = iban.charCodeAt(i);
    if ((acceptsAt(spec, i) & classOf(c)) !== 0) continue;
    const found = iban.charAt(i);
    const digit = AS_DIGIT[found];
    const options = isDigitCode(c) ? (AS_LETTER[found] ?? []) : digit ? [digit] : [];
    if (options.length === 0) return [];
    const head = iban.slice(kept, i);
    readings = readings.flatMap((r) =>
      options.map((readAs) => ({ iban: r.iban + head + readAs, changes: [...r.changes, { index: i, readAs }] })),
    );
    if (readings.length > MAX_READINGS) return [];
    kept = i + 1;
  }
  if (kept === 0) return [];
  const tail = iban.slice(kept);
  return readings.map((r) => ({ iban: r.iban + tail, changes: r.changes }));
}

/** Whether the character before `start` ends a word, or the word is `IBAN` / `IBAN:` glued to the IBAN. */
function startsWord(text: string, start: number): boolean {
  if (start === 0 || !isAlnumCode(text.charCodeAt(start - 1))) return true;
  const before = text.slice(Math.max(0, start - 5), start).toUpperCase();
  const prefixed = before.endsWith('IBAN') ? start - 4 : -1;
  return prefixed >= 0 && (prefixed === 0 || !isAlnumCode(text.charCodeAt(prefixed - 1)));
}

/**
 * Every IBAN in `text`, in text order, judged by `judge` (the validate answer of an electronic
 * form), at most `max`.
 */
export function extractIbans<R extends Judged>(
  text: string,
  judge: (iban: string) => R,
  max = MAX_EXTRACTED,
): Extraction<R> {
  const items: Found<R>[] = [];
  let i = 0;
  const last = text.length - 15; // the shortest IBAN (NO) has 15 characters
  while (i <= last) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    if (!isLetterCode(c0) || !isLetterCode(c1)) {
      i++;
      continue;
    }
    const spec = countryAt(c0 & ~32, c1 & ~32);
    const run = spec ? readRun(text, i, spec) : null;
    if (!spec || !run) {
      i++;
      continue;
    }
    const found = judgeRun(text, i, run, spec, judge, hasIbanShape(run.iban, spec));
    if (!found) {
      i++;
      continue;
    }
    if (items.length === max) return { items, truncated: true };
    items.push(found);
    i = run.end;
  }
  return { items, truncated: false };
}

function judgeRun<R extends Judged>(
  text: string,
  start: number,
  run: Run,
  spec: CountrySpec,
  judge: (iban: string) => R,
  shaped: boolean,
): Found<R> | null {
  const result = judge(run.iban);
  const ocr = result.valid ? null : ocrRepair(text, run, spec, judge);
  if (!result.valid && !ocr && (!shaped || run.glued || !startsWord(text, start))) return null;
  if (ocr) result.suggestions = [ocr.iban, ...result.suggestions.filter((s) => s !== ocr.iban)];
  return { match: text.slice(start, run.end), start, end: run.end, result, ocr };
}

/** The one reading that makes the run valid, or null when none or several do. */
function ocrRepair<R extends Judged>(
  text: string,
  run: Run,
  spec: CountrySpec,
  judge: (iban: string) => R,
): OcrRepair | null {
  let repair: Reading | null = null;
  for (const reading of ocrReadings(run.iban, spec)) {
    if (!judge(reading.iban).valid) continue;
    if (repair) return null;
    repair = reading;
  }
  if (!repair) return null;
  const readings = repair.changes.map(({ index, readAs }) => {
    const at = run.offsets[index] ?? -1; // never -1: run.offsets has an entry for every character of run.iban
    return { at, found: text.charAt(at), read_as: readAs };
  });
  const [first] = readings;
  return first ? { iban: repair.iban, ...first, readings } : null;
}
