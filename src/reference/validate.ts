/**
 * validateReference: normalise, tell the type, then judge in this order: empty, characters,
 * length, check (docs/api.md, "POST /v1/reference/validate"). Never throws: any input gives an
 * answer.
 */
import type { ReferenceFault, ReferenceErrorCode } from './errors.ts';
import { suggestReferences } from './suggest.ts';
import { REFERENCE_TYPES, type ReferenceType, TYPE_OF_COUNTRY, TYPES } from './types.ts';

export interface ReferenceResult {
  /** The electronic form: separators (and a Belgian `+++`/`***` frame) removed, upper case. */
  reference: string;
  /** null when it could not be told (error `reference_type_unknown`). */
  type: ReferenceType | null;
  valid: boolean;
  /** The print form when characters and length hold; else the electronic form. */
  formatted: string;
  errors: ReferenceFault[];
  /** rf and be_ogm only: up to 5 references one substitution or one swap of neighbours away whose check holds. */
  suggestions: string[];
}

export interface ValidateReferenceOptions {
  type?: ReferenceType;
  /** ISO 3166 code: BE, CH, LI, FI, NO or SE pick the type when the reference's form does not. */
  country?: string;
}

/** White space of every kind, no-break spaces included. */
const SPACES = /[\s\u00a0\u202f\ufeff]+/g;
/** A Belgian structured communication in its print frame: `+++…+++` or `***…***`. */
const BELGIAN_FRAME = /^(\+\+\+|\*\*\*)(.*)\1$/;

const error = (code: ReferenceErrorCode, message: string): ReferenceFault => ({ code, message });

/**
 * The reference without white space, ASCII letters upper-cased; the Belgian frame noted. Unicode
 * upper-casing would turn some other characters into ASCII letters (the ligature ﬁ into FI, ı into I).
 */
export const compactReference = (input: string): string =>
  input.replace(SPACES, '').replace(/[a-z]+/g, (s) => s.toUpperCase());

function normalize(input: string): { compact: string; framed: boolean } {
  const compact = compactReference(input);
  return { compact, framed: BELGIAN_FRAME.test(compact) };
}

/** The electronic form of a reference of `type`: a Belgian one loses its frame and slashes. */
function electronic(compact: string, type: ReferenceType | null): string {
  if (type !== 'be_ogm') return compact;
  const framed = BELGIAN_FRAME.exec(compact);
  return (framed ? (framed[2] ?? '') : compact).replace(/\//g, '');
}

/** The type in the order docs/api.md ("Payment references") gives: RF first, the Belgian frame, 27 digits, then the country. */
function detect(compact: string, framed: boolean, country: string | undefined): ReferenceType | null {
  if (compact.startsWith('RF')) return 'rf';
  if (framed) return 'be_ogm';
  if (/^[0-9]{27}$/.test(compact)) return 'qrr';
  return (country && TYPE_OF_COUNTRY[country.trim().toUpperCase()]) || null;
}

/** What is wrong with `reference` as a reference of `type`, in order; empty when it is valid. */
function faultsOf(reference: string, type: ReferenceType): ReferenceFault[] {
  const spec = TYPES[type];
  if (!spec.allows(reference)) {
    return [error('reference_characters', `A ${spec.name} holds ${spec.charactersText} only.`)];
  }
  const shape = spec.shapeFault?.(reference);
  if (shape) return [error('reference_characters', shape)];
  if (reference.length < spec.min || reference.length > spec.max) {
    const allowed = spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`;
    return [error('reference_length', `A ${spec.name} has ${allowed} characters; this one has ${reference.length}.`)];
  }
  if (!spec.holds(reference)) {
    const fault =
      spec.checkFault?.(reference) ?? `The check of this ${spec.name} does not hold: probably a typing error.`;
    return [error('reference_check_failed', fault)];
  }
  return [];
}

/** The reference judged as `type`. */
export function judgeAs(reference: string, type: ReferenceType): ReferenceResult {
  const errors = faultsOf(reference, type);
  const shaped = errors.length === 0 || errors[0]?.code === 'reference_check_failed';
  const failedCheck = errors[0]?.code === 'reference_check_failed';
  return {
    reference,
    type,
    valid: errors.length === 0,
    formatted: shaped ? TYPES[type].format(reference) : reference,
    errors,
    suggestions: failedCheck ? suggestReferences(reference, type) : [],
  };
}

/** The types (other than rf, which starts with RF) whose characters, length and check hold. */
const candidatesOf = (reference: string): ReferenceType[] =>
  REFERENCE_TYPES.filter((type) => type !== 'rf' && faultsOf(reference, type).length === 0);

export function validateReference(input: string, options: ValidateReferenceOptions = {}): ReferenceResult {
  const { compact, framed } = normalize(typeof input === 'string' ? input : '');
  const type = options.type ?? detect(compact, framed, options.country);
  const reference = electronic(compact, type);
  if (reference.length === 0) {
    return {
      reference,
      type,
      valid: false,
      formatted: reference,
      errors: [error('reference_empty', 'No reference was given.')],
      suggestions: [],
    };
  }
  if (type !== null) return judgeAs(reference, type);
  const candidates = candidatesOf(reference);
  const unknown: ReferenceFault = {
    ...error(
      'reference_type_unknown',
      candidates.length > 0
        ? `The type cannot be told from the reference alone; it holds as ${candidates.join(', ')}: send \`type\` or \`country\`.`
        : 'The type cannot be told from the reference alone, and it holds as none of the types: send `type` or `country`.',
    ),
    candidates,
  };
  return { reference, type: null, valid: false, formatted: reference, errors: [unknown], suggestions: [] };
}
