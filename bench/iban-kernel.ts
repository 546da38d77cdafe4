import os from 'node:os';
import { extractIBAN, isValidIBAN, validateIBAN } from 'ibantools';
import {
  COUNTRIES,
  checkGermanAccount,
  computeCheckDigits,
  DE_METHODS,
  germanMethodLookup,
  type ValidateOptions,
  validateIban,
} from '../src/iban/index.ts';
import { ibanRemainder } from '../src/iban/mod97.ts';
import { writeSection } from './report.ts';

const SET_SIZE = 10_000;
const WARMUP_ROUNDS = 5;
const ROUNDS = 15;
/** Passes over the set per round, so that a round lasts long enough to time. */
const PASSES = 5;

let seed = 97;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = (chars: string): string => chars[Math.floor(random() * chars.length)]!;
/** Characters for each class bit mask of CountrySpec.classes: 1 digit, 2 letter, 3 either. */
const CLASS_CHARS = ['', '0123456789', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

/** A random IBAN of the country that passes every check, national ones included. */
function validIban(code: string): string {
  const spec = (COUNTRIES as Record<string, { classes: Uint8Array }>)[code]!;
  for (;;) {
    let bban = '';
    for (const cls of spec.classes) bban += pick(CLASS_CHARS[cls]!);
    const iban = code + computeCheckDigits(code, bban) + bban;
    if (validateIban(iban).valid) return iban;
  }
}

/** The mix: 60% valid, 10% valid in print form, 20% one digit off, 5% wrong length, 5% unknown country. */
function buildSet(): string[] {
  const codes = Object.keys(COUNTRIES);
  const set: string[] = [];
  for (let i = 0; i < SET_SIZE; i++) {
    const iban = validIban(codes[i % codes.length]!);
    const r = random();
    if (r < 0.6) set.push(iban);
    else if (r < 0.7)
      set.push(
        iban
          .toLowerCase()
          .replace(/(.{4})/g, '$1 ')
          .trim(),
      );
    else if (r < 0.9) {
      const at = 4 + Math.floor(random() * (iban.length - 4));
      set.push(
        iban.slice(0, at) + (/[0-9]/.test(iban[at]!) ? String((Number(iban[at]) + 1) % 10) : 'A') + iban.slice(at + 1),
      );
    } else if (r < 0.95) set.push(iban.slice(0, -1));
    else set.push(`XX${iban.slice(2)}`);
  }
  return set;
}

/**
 * German-only sets: 2,000 generated bank codes, each given a Bundesbank method, looked up by
 * BLZ string (as the data plane is) through the remembering adapter validation uses. 80% of
 * the IBANs pass their bank's method, 20% have one account digit off (IBAN check digits
 * recomputed, so only the account check can catch them). Two ways of giving banks methods:
 * every implemented method in turn (the hardest case for the JIT: 52 equally hot functions),
 * and the rough shares of bank codes per method in the Bundesbank's directory.
 */
const GERMAN_BANKS = 2000;
const methodCodes = Object.keys(DE_METHODS);
/** Approximate percent of the directory's bank codes per method; the rest share the remaining 10 %. */
const DIRECTORY_SHARES: Record<string, number> = {
  '09': 20,
  '63': 11,
  '00': 9,
  '88': 8,
  '06': 8,
  '13': 7,
  '10': 6,
  '76': 5,
  '32': 5,
  '28': 4,
  '34': 4,
  '99': 3,
};
const others = methodCodes.filter((c) => DIRECTORY_SHARES[c] === undefined);
const directoryMethod = (): string => {
  let r = random() * 100;
  for (const [code, share] of Object.entries(DIRECTORY_SHARES)) if ((r -= share) < 0) return code;
  return others[Math.floor(random() * others.length)]!;
};

function germanSetOf(methodFor: (bank: number) => string): { set: string[]; options: ValidateOptions } {
  const methods = new Map<string, string>();
  const banks: string[] = [];
  while (banks.length < GERMAN_BANKS) {
    let blz = pick('12345678');
    for (let i = 1; i < 8; i++) blz += pick('0123456789');
    if (methods.has(blz)) continue;
    methods.set(blz, methodFor(banks.length));
    banks.push(blz);
  }
  const iban = (valid: boolean): string => {
    for (;;) {
      const blz = banks[Math.floor(random() * banks.length)]!;
      let account = '';
      for (let i = 0; i < 10; i++) account += pick('0123456789');
      const candidate = `DE${computeCheckDigits('DE', blz + account)}${blz}${account}`;
      const verdict = checkGermanAccount(candidate, methods.get(blz)!);
      if (valid ? verdict !== 'failed' : verdict === 'failed') return candidate;
    }
  };
  return {
    set: Array.from({ length: SET_SIZE }, () => iban(random() < 0.8)),
    options: { germanMethodOf: germanMethodLookup((blz) => methods.get(blz) ?? null) },
  };
}

interface Candidate {
  set: string[];
  fn: (s: string) => unknown;
}

/**
 * Median ops/s of each candidate after warming up. Time is the process's CPU time, not
 * wall time, so that other processes sharing the machine count less; rounds alternate
 * between candidates so that load changes hit all alike. Each candidate gets its own
 * freshly compiled timing loop, so that one's type feedback cannot slow down another.
 */
function measureAll(candidates: Candidate[]): number[] {
  const loops = candidates.map(
    () =>
      new Function('set', 'fn', 'let n = 0; for (let i = 0; i < set.length; i++) if (fn(set[i])) n++; return n;') as (
        set: string[],
        fn: (s: string) => unknown,
      ) => number,
  );
  const rates: number[][] = candidates.map(() => []);
  let sink = 0;
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    candidates.forEach(({ set, fn }, c) => {
      const start = process.cpuUsage();
      for (let pass = 0; pass < PASSES; pass++) sink += loops[c]!(set, fn);
      const seconds = cpuSeconds(start);
      if (round >= WARMUP_ROUNDS) rates[c]!.push((set.length * PASSES) / seconds);
    });
  }
  if (sink < 0) console.log(sink);
  return rates.map(median);
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median CPU time of validating one batch of 1000 IBANs (each 1000-slice of the set, many rounds). */
function batchOf1000(set: string[]): number {
  const times: number[] = [];
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (let from = 0; from + 1000 <= set.length; from += 1000) {
      const start = process.cpuUsage();
      const results = [];
      for (let i = from; i < from + 1000; i++) results.push(validateIban(set[i]!));
      if (round >= WARMUP_ROUNDS) times.push(cpuSeconds(start) * 1000);
      if (results.length !== 1000) throw new Error('lost results');
    }
  }
  return median(times);
}

const set = buildSet();
const everyMethod = germanSetOf((bank) => methodCodes[bank % methodCodes.length]!);
const directory = germanSetOf(directoryMethod);
const electronic = set.map((s) => s.replace(/ /g, '').toUpperCase());
const validOnly = set.filter((s) => validateIban(s).valid && !s.includes(' '));
const typosOnly = set.filter((s) =>
  validateIban(s).errors.some((e) => e.code !== 'invalid_length' && e.code !== 'unknown_country'),
);

const [bare, full, fullValid, fullTypos, ibantoolsIsValid, ibantoolsFull, ibantoolsFullValid] = measureAll([
  { set: electronic, fn: (s) => ibanRemainder(s) === 1 },
  { set, fn: (s) => validateIban(s).valid },
  { set: validOnly, fn: (s) => validateIban(s).valid },
  { set: typosOnly, fn: (s) => validateIban(s).valid },
  { set, fn: (s) => isValidIBAN(s) },
  {
    set,
    fn: (s) => {
      const e = extractIBAN(s);
      return validateIBAN(e.iban).valid && e.valid;
    },
  },
  {
    set: validOnly,
    fn: (s) => {
      const e = extractIBAN(s);
      return validateIBAN(e.iban).valid && e.valid;
    },
  },
]) as [number, number, number, number, number, number, number];
const batchMs = batchOf1000(set);
const [everyWithout, everyWith, directoryWithout, directoryWith] = measureAll([
  { set: everyMethod.set, fn: (s) => validateIban(s).valid },
  { set: everyMethod.set, fn: (s) => validateIban(s, everyMethod.options).valid },
  { set: directory.set, fn: (s) => validateIban(s).valid },
  { set: directory.set, fn: (s) => validateIban(s, directory.options).valid },
]) as [number, number, number, number];
const share = (without: number, withCheck: number): string => `${((1 - withCheck / without) * 100).toFixed(1)}%`;

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const section = [
  '## IBAN kernel (`bench/iban-kernel.ts`)',
  '',
  `Node ${process.version}, ${cpu} (${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the start), one core used (single thread). ${SET_SIZE.toLocaleString('en-US')} generated IBANs from all ${Object.keys(COUNTRIES).length} registry countries:`,
  '60% valid, 10% valid in lower-case print form, 20% one digit off, 5% one character short, 5% unknown country.',
  `${WARMUP_ROUNDS} warm-up rounds, then the median of ${ROUNDS} rounds of ${PASSES} passes, timed in process CPU time, rounds alternating between the measurements (the machine may be shared). Run: \`node --import tsx bench/iban-kernel.ts\`.`,
  '',
  '| measurement | IBANs/s |',
  '|---|---:|',
  `| bare mod 97 loop (electronic forms of the same set) | ${fmt(bare)} |`,
  `| mod97 \`validateIban\`, full result (normalise, registry, structure, mod 97, national check, suggestions for invalid ones) | ${fmt(full)} |`,
  `| mod97 \`validateIban\`, valid electronic-form IBANs only | ${fmt(fullValid)} |`,
  `| mod97 \`validateIban\`, one-digit-off IBANs only (each gets its suggestions) | ${fmt(fullTypos)} |`,
  `| ibantools \`isValidIBAN\` | ${fmt(ibantoolsIsValid)} |`,
  `| ibantools \`extractIBAN\` + \`validateIBAN\` (closest to a full check) | ${fmt(ibantoolsFull)} |`,
  `| ibantools \`extractIBAN\` + \`validateIBAN\`, valid electronic-form IBANs only | ${fmt(ibantoolsFullValid)} |`,
  '',
  `Ratios: full / bare = ${(full / bare).toFixed(2)}, full / ibantools full = ${(full / ibantoolsFull).toFixed(2)}, full / ibantools isValidIBAN = ${(full / ibantoolsIsValid).toFixed(2)}; valid only: mod97 / ibantools = ${(fullValid / ibantoolsFullValid).toFixed(2)}, mod97 / bare = ${(fullValid / bare).toFixed(2)}.`,
  '',
  `Batch of 1000 IBANs through \`validateIban\` (the mixed set, median CPU time over all 1000-slices): ${batchMs.toFixed(3)} ms.`,
  '',
  '### German account check',
  '',
  `${SET_SIZE.toLocaleString('en-US')} German IBANs per set over ${GERMAN_BANKS.toLocaleString('en-US')} generated bank codes; 80% pass their bank's method, 20% have one account digit off with the IBAN check digits recomputed (so only the account check catches them). Methods are looked up by BLZ string, as the data plane is, through the remembering adapter validation uses. Banks get their method either in the rough shares of the Bundesbank directory (09 20%, 63 11%, 00 9%, 88 and 06 8% each, 13 7%, 10 6%, 76 and 32 5% each, 28 and 34 4% each, 99 3%, the other ${others.length} implemented methods sharing 10%), or every one of the ${methodCodes.length} implemented methods in turn (the hardest case for the JIT: as many equally hot functions).`,
  '',
  '| set | without the account check (IBANs/s) | with it (IBANs/s) | share of validation time |',
  '|---|---:|---:|---:|',
  `| directory shares | ${fmt(directoryWithout)} | ${fmt(directoryWith)} | ${share(directoryWithout, directoryWith)} |`,
  `| every method in turn | ${fmt(everyWithout)} | ${fmt(everyWith)} | ${share(everyWithout, everyWith)} |`,
  '',
  'The share is what the account check (BLZ lookup, the method, and the stricter suggestions) adds, as a part of validation time with it; the budget is 20%.',
].join('\n');
console.log(section);

writeSection('iban-kernel', section);
