/**
 * What finding IBANs in text costs per kilobyte (POST /v1/iban/extract's domain step, no HTTP):
 * the matcher and the validation of each candidate, over invoice-like text with no IBAN, a few,
 * and one per line (valid, failing and OCR-misread ones), timed in process CPU time.
 * Run: node --import tsx bench/extract.ts [--rounds N]. Prints the figures; writes nothing.
 */
import { parseArgs } from 'node:util';
import { extractIbans } from '../src/iban/extract.ts';
import { validateIban } from '../src/iban/index.ts';
import { LIMITS } from '../src/plans.ts';

const PROSE =
  'Rechnung RE-2026-00123 vom 05.11.2026, Kundennummer 100234, USt-IdNr. DE123456789. Betrag 1.234,56 EUR, zahlbar innerhalb von 14 Tagen. ';
const LINES = {
  valid: 'Bitte überweisen Sie auf IBAN: DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX).',
  failing: 'Alternativ: GB82 WEST 1234 5698 7654 31, Referenz PO-2026-7781.',
  scanned: 'Scan: FR14 2004 1010 O505 0001 3M02 606 — Montant 1 234,56 €.',
};

/** A text of `limit` characters, with an IBAN line every `every` lines (0: none). */
export function sampleText(every: number, limit = LIMITS.extractMaxChars): string {
  const kinds = Object.values(LINES);
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < limit; i++) {
    const line = every > 0 && i % every === every - 1 ? kinds[i % kinds.length]! : PROSE;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, limit);
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Median CPU microseconds per 1,000 characters of `text`, over `rounds` rounds. */
export function extractMicrosPerKb(text: string, rounds: number): { microsPerKb: number; found: number } {
  const judge = (iban: string) => validateIban(iban);
  let found = 0;
  for (let i = 0; i < 3; i++) found = extractIbans(text, judge).items.length;
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = cpuMs();
    for (let p = 0; p < 10; p++) extractIbans(text, judge);
    times.push(((cpuMs() - start) * 1000) / 10);
  }
  times.sort((a, b) => a - b);
  return { microsPerKb: times[Math.floor(times.length / 2)]! / (text.length / 1000), found };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
  const rounds = Number(values.rounds);
  for (const [label, every] of [
    ['no IBAN', 0],
    ['an IBAN every 10 lines', 10],
    ['an IBAN every line', 1],
  ] as const) {
    const text = sampleText(every);
    const { microsPerKb, found } = extractMicrosPerKb(text, rounds);
    console.log(
      `${label}: ${found} found in ${text.length} characters, ${microsPerKb.toFixed(1)} µs CPU per 1,000 characters`,
    );
  }
}
