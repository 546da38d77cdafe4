/**
 * The six reference types (docs/api.md, "Payment references"): what characters and lengths each
 * allows in electronic form, its check, its print form, and what `create` makes one from.
 */
import { belgianCheck, finnishCheck, luhnCheck, mod11Check, recursiveMod10, rfCheckDigits, rfHolds } from './checks.ts';

export const REFERENCE_TYPES = ['rf', 'qrr', 'be_ogm', 'fi', 'no_kid', 'se_ocr'] as const;
export type ReferenceType = (typeof REFERENCE_TYPES)[number];

/** The algorithms a Norwegian KID's last digit can be made with. */
export const KID_ALGORITHMS = ['mod10', 'mod11'] as const;
export type KidAlgorithm = (typeof KID_ALGORITHMS)[number];

export interface TypeSpec {
  /** What a person calls it, for messages. */
  name: string;
  /** The characters of the electronic form, as a sentence for messages. */
  charactersText: string;
  /** Every character allowed (the RF prefix and check digits are checked by `shapeFault`). */
  allows(reference: string): boolean;
  /** A fault of shape beyond the character set (RF: the prefix and check digits), or null. */
  shapeFault?(reference: string): string | null;
  min: number;
  max: number;
  /** The check holds (characters and length already hold). */
  holds(reference: string): boolean;
  /** Why the check fails, where a reason is finer than a typing error. */
  checkFault?: (reference: string) => string | null;
  /** The print form (characters and length already hold). */
  format(reference: string): string;
  /** What `create` takes: lengths and characters of `from`. */
  from: { min: number; max: number; digitsOnly: boolean };
}

const DIGITS = /^[0-9]+$/;
const ALNUM = /^[A-Z0-9]+$/;

/** Groups of `size` from the right (QR reference, Finnish reference) or the left (RF). */
const groupsFromRight = (s: string, size: number) => {
  const head = s.length % size;
  const groups = head ? [s.slice(0, head)] : [];
  for (let i = head; i < s.length; i += size) groups.push(s.slice(i, i + size));
  return groups.join(' ');
};
const groupsFromLeft = (s: string, size: number) => s.replace(new RegExp(`(.{${size}})(?=.)`, 'g'), '$1 ');

const lastDigitBy = (check: (digits: string) => string) => (reference: string) =>
  check(reference.slice(0, -1)) === reference.slice(-1);

/** A Norwegian KID holds by mod 10 (Luhn) or by mod 11; which one, when it holds. */
export function kidAlgorithm(reference: string): KidAlgorithm | null {
  const body = reference.slice(0, -1);
  const last = reference.slice(-1);
  if (last !== '-' && luhnCheck(body) === last) return 'mod10';
  return mod11Check(body) === last ? 'mod11' : null;
}

export const TYPES: Readonly<Record<ReferenceType, TypeSpec>> = {
  rf: {
    name: 'RF creditor reference (ISO 11649)',
    charactersText: 'letters A-Z and digits',
    allows: (r) => ALNUM.test(r),
    shapeFault: (r) =>
      !r.startsWith('RF')
        ? 'An RF creditor reference starts with RF.'
        : !/^RF[0-9]{2}/.test(r)
          ? 'The two characters after RF are its check digits and must be digits.'
          : null,
    min: 5,
    max: 25,
    holds: rfHolds,
    checkFault: (r) =>
      /^RF0[01]/.test(r)
        ? 'The check digits of an RF creditor reference are 02 to 98: ISO 11649 never makes 00 or 01 (it writes 97 and 98 instead).'
        : null,
    format: (r) => groupsFromLeft(r, 4),
    from: { min: 1, max: 21, digitsOnly: false },
  },
  qrr: {
    name: 'QR reference (Swiss QR-bill)',
    charactersText: 'digits',
    allows: (r) => DIGITS.test(r),
    min: 27,
    max: 27,
    holds: lastDigitBy(recursiveMod10),
    format: (r) => groupsFromRight(r, 5),
    from: { min: 1, max: 26, digitsOnly: true },
  },
  be_ogm: {
    name: 'Belgian structured communication (OGM/VCS)',
    charactersText: 'digits',
    allows: (r) => DIGITS.test(r),
    min: 12,
    max: 12,
    holds: (r) => belgianCheck(r.slice(0, 10)) === r.slice(10),
    format: (r) => `+++${r.slice(0, 3)}/${r.slice(3, 7)}/${r.slice(7)}+++`,
    from: { min: 1, max: 10, digitsOnly: true },
  },
  fi: {
    name: 'Finnish reference (viitenumero)',
    charactersText: 'digits',
    allows: (r) => DIGITS.test(r),
    min: 4,
    max: 20,
    holds: lastDigitBy(finnishCheck),
    format: (r) => groupsFromRight(r, 5),
    from: { min: 3, max: 19, digitsOnly: true },
  },
  no_kid: {
    name: 'Norwegian KID',
    charactersText: 'digits (the last may be "-", a mod 11 check of 10)',
    allows: (r) => /^[0-9]+-?$/.test(r),
    min: 2,
    max: 25,
    holds: (r) => kidAlgorithm(r) !== null,
    format: (r) => r,
    from: { min: 1, max: 24, digitsOnly: true },
  },
  se_ocr: {
    name: 'Swedish OCR reference',
    charactersText: 'digits',
    allows: (r) => DIGITS.test(r),
    min: 2,
    max: 25,
    holds: lastDigitBy(luhnCheck),
    format: (r) => r,
    from: { min: 1, max: 24, digitsOnly: true },
  },
};

/** The check characters `create` appends to the (padded) body, or null when mod 11 gives 10. */
export function checkFor(type: ReferenceType, body: string, algorithm: KidAlgorithm): string | null {
  switch (type) {
    case 'rf':
      return rfCheckDigits(body);
    case 'qrr':
      return recursiveMod10(body);
    case 'be_ogm':
      return belgianCheck(body);
    case 'fi':
      return finnishCheck(body);
    case 'no_kid': {
      if (algorithm === 'mod10') return luhnCheck(body);
      const check = mod11Check(body);
      return check === '-' ? null : check;
    }
    case 'se_ocr':
      return luhnCheck(body);
  }
}

/** The type a country's payments use for its national reference (CH and LI: the QR reference). */
export const TYPE_OF_COUNTRY: Readonly<Record<string, ReferenceType>> = {
  BE: 'be_ogm',
  CH: 'qrr',
  LI: 'qrr',
  FI: 'fi',
  NO: 'no_kid',
  SE: 'se_ocr',
};
