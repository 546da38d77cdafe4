/**
 * Account number to IBAN: the domestic parts as people write them (separators allowed,
 * leading zeros optional where the country pads) put together into the country's BBAN. National
 * check digits that stand apart from the account (FR/MC RIB key, ES DC, IT/SM CIN, PT NIB) are
 * computed; those inside the domestic number (BE, NO, FI, CZ, SK, SI, EE, DE) are left as
 * written, for the validation of the built IBAN to judge. Pure: no data, no I/O.
 */
import { computeCheckDigits, foldMod97 } from './mod97.ts';
import { NATIONAL_CHECKS } from './national.ts';

export interface AccountParts {
  country: string;
  bank_code?: string | null;
  branch_code?: string | null;
  account?: string | null;
}

export interface ConstructedFrom {
  country: string;
  bank_code: string | null;
  branch_code: string | null;
  account: string;
  /** The national check digits mod97 computed (FR/MC key, ES DC, IT/SM CIN, PT NIB), else null. */
  national_check_digits: string | null;
}

type FromAccountField = 'country' | 'bank_code' | 'branch_code' | 'account';

type FromAccountResult =
  | { ok: true; iban: string; constructed_from: ConstructedFrom }
  | { ok: false; error: 'invalid_request' | 'unsupported_country'; field: FromAccountField; message: string };

class PartError extends Error {
  constructor(
    readonly field: FromAccountField,
    message: string,
  ) {
    super(message);
  }
}

type Cls = 'n' | 'a' | 'c';
const CLASS_TEST: Record<Cls, RegExp> = { n: /^[0-9]+$/, a: /^[A-Z]+$/, c: /^[A-Z0-9]+$/ };
const CLASS_WORDS: Record<Cls, string> = { n: 'digits', a: 'letters', c: 'letters and digits' };

/** Separators people write inside account numbers: white space, hyphens and dashes, dots, slashes. */
const SEPARATORS = /[\s\u00a0\u2010-\u2015\u2212\-./]+/g;
const clean = (raw: string | null | undefined): string => (raw ?? '').replace(SEPARATORS, '').toUpperCase();

interface Spec {
  length: number;
  cls: Cls;
  /** Shorter values are left-padded with zeros. */
  pad?: boolean;
}

/** A cleaned part checked against its spec, padded; throws PartError naming the field. */
function fit(field: FromAccountField, value: string, spec: Spec, country: string): string {
  if (value === '') throw new PartError(field, `\`${field}\` is required for ${country}.`);
  const what = `${spec.length} ${CLASS_WORDS[spec.cls]}`;
  if (!CLASS_TEST[spec.cls].test(value))
    throw new PartError(field, `\`${field}\` for ${country} holds ${CLASS_WORDS[spec.cls]} only (${what}).`);
  if (value.length > spec.length || (!spec.pad && value.length !== spec.length))
    throw new PartError(field, `\`${field}\` for ${country} is ${spec.pad ? 'at most ' : ''}${what}.`);
  return value.padStart(spec.length, '0');
}

function none(field: FromAccountField, raw: string | null | undefined, country: string): void {
  if (clean(raw) !== '') throw new PartError(field, `${country} account numbers have no \`${field}\`: leave it out.`);
}

/** A bank code that the domestic number already holds: optional, and when sent it must be that. */
function agreeing(raw: string | null | undefined, held: string, country: string): string {
  const sent = clean(raw);
  if (sent !== '' && sent.padStart(held.length, '0') !== held)
    throw new PartError(
      'bank_code',
      `\`bank_code\` ${sent} differs from the one the ${country} account number holds (${held}).`,
    );
  return held;
}

interface Built {
  bban: string;
  bank: string | null;
  branch: string | null;
  account: string;
  national?: string;
}

/**
 * Where each domestic part goes, as the builder itself reads it: agents and docs read this
 * (`fromAccountHints`) so that a GB sort code is sent as `branch_code`, not guessed.
 */
interface PartHint {
  /** The part's local name (sort code, code guichet, ABI), where it has one. */
  name?: string;
  spec?: Spec;
  /** Said instead of the spec, for parts read in a country's own way. */
  text?: string;
}

interface Layout {
  bank_code?: PartHint;
  branch_code?: PartHint;
  account: PartHint;
  /** The national check digits the builder computes. */
  computed?: string;
}

type Builder = ((p: AccountParts, cc: string) => Built) & { layout: Layout };

const described = (build: (p: AccountParts, cc: string) => Built, layout: Layout): Builder =>
  Object.assign(build, { layout });

/** Bank code + account, the account padded: the commonest layout. */
const plain = (bank: Spec, account: Spec, bankName?: string): Builder =>
  described(
    (p, cc) => {
      none('branch_code', p.branch_code, cc);
      const b = fit('bank_code', clean(p.bank_code), bank, cc);
      const a = fit('account', clean(p.account), account, cc);
      return { bban: b + a, bank: b, branch: null, account: a };
    },
    { bank_code: { name: bankName, spec: bank }, account: { spec: account } },
  );

/** The check characters (from `candidates`) that make `cc`'s national check pass at `at` in the BBAN. */
function solve(cc: string, before: string, after: string, candidates: readonly string[]): string {
  const check = NATIONAL_CHECKS[cc].check;
  const found = candidates.find((c) => check(`${cc}00${before}${c}${after}`));
  if (found === undefined) throw new Error(`no ${cc} check digits fit`); // cannot happen for well-formed parts
  return found;
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
/** A RIB key is 97 minus a remainder mod 97: 01 to 97, never 00 (which would pass the check where 97 is due). */
const RIB_KEYS = TWO_DIGITS.slice(1, 98);
const LETTERS = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));

const FR = {
  bank: { length: 5, cls: 'n' },
  branch: { length: 5, cls: 'n' },
  account: { length: 11, cls: 'c', pad: true },
} as const;
const french: Builder = described(
  (p, cc) => {
    const bank = fit('bank_code', clean(p.bank_code), FR.bank, cc);
    const branch = fit('branch_code', clean(p.branch_code), FR.branch, cc);
    const account = fit('account', clean(p.account), FR.account, cc);
    const key = solve(cc, bank + branch + account, '', RIB_KEYS);
    return { bban: bank + branch + account + key, bank, branch, account, national: key };
  },
  {
    bank_code: { name: 'code banque', spec: FR.bank },
    branch_code: { name: 'code guichet', spec: FR.branch },
    account: { name: 'numéro de compte', spec: FR.account },
    computed: 'the RIB key',
  },
);

const ES = {
  bank: { length: 4, cls: 'n' },
  branch: { length: 4, cls: 'n' },
  account: { length: 10, cls: 'n', pad: true },
} as const;
const spanish: Builder = described(
  (p, cc) => {
    const bank = fit('bank_code', clean(p.bank_code), ES.bank, cc);
    const branch = fit('branch_code', clean(p.branch_code), ES.branch, cc);
    const account = fit('account', clean(p.account), ES.account, cc);
    const dc = solve(cc, bank + branch, account, TWO_DIGITS);
    return { bban: bank + branch + dc + account, bank, branch, account, national: dc };
  },
  {
    bank_code: { name: 'entidad', spec: ES.bank },
    branch_code: { name: 'oficina', spec: ES.branch },
    account: { spec: ES.account },
    computed: 'the DC',
  },
);

const IT = {
  bank: { length: 5, cls: 'n' },
  branch: { length: 5, cls: 'n' },
  account: { length: 12, cls: 'c', pad: true },
} as const;
const italian: Builder = described(
  (p, cc) => {
    const bank = fit('bank_code', clean(p.bank_code), IT.bank, cc);
    const branch = fit('branch_code', clean(p.branch_code), IT.branch, cc);
    const account = fit('account', clean(p.account), IT.account, cc);
    const cin = solve(cc, '', bank + branch + account, LETTERS);
    return { bban: cin + bank + branch + account, bank, branch, account, national: cin };
  },
  {
    bank_code: { name: 'ABI', spec: IT.bank },
    branch_code: { name: 'CAB', spec: IT.branch },
    account: { name: 'conto', spec: IT.account },
    computed: 'the CIN',
  },
);

/** Portuguese NIB: two check digits, ISO 7064 mod 97-10 over bank, branch and account. */
const PT = {
  bank: { length: 4, cls: 'n' },
  branch: { length: 4, cls: 'n' },
  account: { length: 11, cls: 'n', pad: true },
} as const;
const portuguese: Builder = described(
  (p, cc) => {
    const bank = fit('bank_code', clean(p.bank_code), PT.bank, cc);
    const branch = fit('branch_code', clean(p.branch_code), PT.branch, cc);
    const account = fit('account', clean(p.account), PT.account, cc);
    const body = bank + branch + account;
    const nib = String(98 - (foldMod97(`${body}00`, 0, body.length + 2, 0) % 97)).padStart(2, '0');
    return { bban: body + nib, bank, branch, account, national: nib };
  },
  {
    bank_code: { name: 'banco', spec: PT.bank },
    branch_code: { name: 'balcão', spec: PT.branch },
    account: { spec: PT.account },
    computed: 'the NIB check digits',
  },
);

/** UK and Irish: the BIC's bank code, the sort code as branch, an 8-digit account. */
const GB = {
  bank: { length: 4, cls: 'a' },
  branch: { length: 6, cls: 'n' },
  account: { length: 8, cls: 'n', pad: true },
} as const;
const sortCode: Builder = described(
  (p, cc) => {
    const bank = fit('bank_code', clean(p.bank_code), GB.bank, cc);
    const branch = fit('branch_code', clean(p.branch_code), GB.branch, cc);
    const account = fit('account', clean(p.account), GB.account, cc);
    return { bban: bank + branch + account, bank, branch, account };
  },
  {
    bank_code: { name: "the first 4 letters of the bank's BIC", spec: GB.bank },
    branch_code: { name: 'sort code', spec: GB.branch },
    account: { spec: GB.account },
  },
);

/** Countries whose domestic number starts with the bank code (BE, NO, SI): the whole number, as written. */
const wholeNumber = (length: number, bankLength: number): Builder =>
  described(
    (p, cc) => {
      none('branch_code', p.branch_code, cc);
      const account = fit('account', clean(p.account), { length, cls: 'n', pad: true }, cc);
      const bank = agreeing(p.bank_code, account.slice(0, bankLength), cc);
      return { bban: account, bank, branch: null, account };
    },
    {
      bank_code: { text: `optional: the account number's first ${bankLength} digits` },
      account: { name: 'the whole domestic number', spec: { length, cls: 'n', pad: true } },
    },
  );

/**
 * Finnish: "123456-785" (6 digits, a hyphen, 2 to 8 digits) becomes the 14-digit machine form by
 * zeros inserted after the 6th digit, or after the 7th when the number starts with 4 or 5.
 */
const finnish: Builder = described(
  (p, cc) => {
    none('branch_code', p.branch_code, cc);
    const raw = (p.account ?? '').trim();
    const written = /^(\d{6})[-\u2010-\u2015\s]?(\d{2,8})$/.exec(raw);
    let account: string;
    if (written && clean(raw).length < 14) {
      const [, head, tail] = written;
      account =
        head[0] === '4' || head[0] === '5'
          ? head + tail[0] + tail.slice(1).padStart(7, '0')
          : head + tail.padStart(8, '0');
    } else {
      account = fit('account', clean(raw), { length: 14, cls: 'n' }, cc);
    }
    const bank = agreeing(p.bank_code, account.slice(0, 3), cc);
    return { bban: account, bank, branch: null, account };
  },
  {
    bank_code: { text: "optional: the account number's first 3 digits" },
    account: { text: 'the account number as written (123456-785) or its 14 digits' },
  },
);

/** Czech and Slovak: "prefix-number/bank"; the prefix and the bank part are optional in `account`. */
const czechSlovak: Builder = described(
  (p, cc) => {
    none('branch_code', p.branch_code, cc);
    const written = /^\s*(?:(\d{1,6})\s*-\s*)?([\d\s]{1,12}?)\s*(?:\/\s*(\d{4}))?\s*$/.exec(p.account ?? '');
    if (!written) {
      if (clean(p.account) === '') throw new PartError('account', `\`account\` is required for ${cc}.`);
      throw new PartError('account', `\`account\` for ${cc} is [prefix-]number[/bank]: up to 6 and 10 digits.`);
    }
    const [, prefixRaw = '', numberRaw = '', bankInAccount = ''] = written;
    const prefix = fit('account', prefixRaw || '0', { length: 6, cls: 'n', pad: true }, cc);
    const number = fit('account', clean(numberRaw), { length: 10, cls: 'n', pad: true }, cc);
    const sentBank = clean(p.bank_code);
    if (bankInAccount && sentBank && sentBank !== bankInAccount)
      throw new PartError(
        'bank_code',
        `\`bank_code\` ${sentBank} differs from the one after the slash (${bankInAccount}).`,
      );
    const bank = fit('bank_code', sentBank || bankInAccount, { length: 4, cls: 'n' }, cc);
    return { bban: bank + prefix + number, bank, branch: null, account: prefix + number };
  },
  {
    bank_code: { name: 'kód banky', text: '4 digits, or after the slash in account' },
    account: { text: '[prefix-]number[/bank], as written' },
  },
);

const BUILDERS: Readonly<Record<string, Builder>> = {
  AT: plain({ length: 5, cls: 'n' }, { length: 11, cls: 'n', pad: true }, 'Bankleitzahl'),
  BE: wholeNumber(12, 3),
  CH: plain({ length: 5, cls: 'n', pad: true }, { length: 12, cls: 'c', pad: true }, 'IID (clearing number)'),
  CZ: czechSlovak,
  DE: plain({ length: 8, cls: 'n' }, { length: 10, cls: 'n', pad: true }, 'Bankleitzahl'),
  EE: plain({ length: 2, cls: 'n' }, { length: 14, cls: 'n', pad: true }),
  ES: spanish,
  FI: finnish,
  FR: french,
  GB: sortCode,
  HR: plain({ length: 7, cls: 'n' }, { length: 10, cls: 'n', pad: true }),
  IE: sortCode,
  IT: italian,
  LI: plain({ length: 5, cls: 'n', pad: true }, { length: 12, cls: 'c', pad: true }, 'IID (clearing number)'),
  LT: plain({ length: 5, cls: 'n' }, { length: 11, cls: 'n', pad: true }),
  LU: plain({ length: 3, cls: 'n' }, { length: 13, cls: 'c', pad: true }),
  LV: plain({ length: 4, cls: 'a' }, { length: 13, cls: 'c', pad: true }, "the first 4 letters of the bank's BIC"),
  MC: french,
  NL: plain({ length: 4, cls: 'a' }, { length: 10, cls: 'n', pad: true }, "the first 4 letters of the bank's BIC"),
  NO: wholeNumber(11, 4),
  PL: plain({ length: 8, cls: 'n' }, { length: 16, cls: 'n', pad: true }, 'numer rozliczeniowy'),
  PT: portuguese,
  SI: wholeNumber(15, 5),
  SK: czechSlovak,
  SM: italian,
};

/** The countries `ibanFromAccount` builds, in alphabetical order. */
export const FROM_ACCOUNT_COUNTRIES: readonly string[] = Object.keys(BUILDERS).sort();

function hintOf(hint: PartHint): string {
  const { spec } = hint;
  const size = spec && `${spec.pad ? 'up to ' : ''}${spec.length} ${CLASS_WORDS[spec.cls]}`;
  const what = hint.text ?? size ?? '';
  return hint.name ? `${hint.name}${what ? ` (${what})` : ''}` : what;
}

/**
 * Per country, where each domestic part goes, from the builders' own rules: one line per group of
 * countries with the same layout, e.g. "GB, IE: bank_code = ...; branch_code = sort code (6 digits); ...".
 */
export function fromAccountHints(): string[] {
  const lines = new Map<string, string[]>();
  for (const cc of FROM_ACCOUNT_COUNTRIES) {
    const { layout } = BUILDERS[cc];
    const parts = (['bank_code', 'branch_code', 'account'] as const).flatMap((field) => {
      const part = layout[field];
      return part ? [`${field} = ${hintOf(part)}`] : [];
    });
    if (!layout.branch_code) parts.push('no branch_code');
    if (layout.computed) parts.push(`computed by the service: ${layout.computed}`);
    const line = parts.join('; ');
    lines.set(line, [...(lines.get(line) ?? []), cc]);
  }
  return [...lines].map(([line, countries]) => `${countries.join(', ')}: ${line}`);
}

/** Builds the IBAN of a domestic account, or says which part does not fit. */
export function ibanFromAccount(parts: AccountParts): FromAccountResult {
  const cc = clean(parts.country);
  if (!/^[A-Z]{2}$/.test(cc))
    return {
      ok: false,
      error: 'invalid_request',
      field: 'country',
      message: '`country` is a two-letter ISO 3166 code.',
    };
  const build = BUILDERS[cc];
  if (build === undefined) {
    return {
      ok: false,
      error: 'unsupported_country',
      field: 'country',
      message: `IBANs are not built from account numbers for ${cc}; supported: ${FROM_ACCOUNT_COUNTRIES.join(', ')}.`,
    };
  }
  try {
    const b = build(parts, cc);
    return {
      ok: true,
      iban: cc + computeCheckDigits(cc, b.bban) + b.bban,
      constructed_from: {
        country: cc,
        bank_code: b.bank,
        branch_code: b.branch,
        account: b.account,
        national_check_digits: b.national ?? null,
      },
    };
  } catch (err) {
    if (err instanceof PartError)
      return { ok: false, error: 'invalid_request', field: err.field, message: err.message };
    throw err;
  }
}
