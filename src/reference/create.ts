/**
 * createReference: the reference of a type made from the creditor's own number (docs/api.md,
 * "POST /v1/reference/create"), answered as validate answers it.
 */
import { KID_ALGORITHMS, type KidAlgorithm, checkFor, type ReferenceType, TYPES } from './types.ts';
import { compactReference, judgeAs, type ReferenceResult } from './validate.ts';

export interface CreateReferenceInput {
  type: ReferenceType;
  /** The creditor's number (rf: letters and digits); white space is dropped, letters upper-cased. */
  from: string;
  /** no_kid only: `mod10` (Luhn, the default) or `mod11`. */
  algorithm?: KidAlgorithm;
}

export type CreateReferenceError = {
  ok: false;
  code: 'reference_empty' | 'reference_characters' | 'reference_length' | 'reference_not_creatable' | 'invalid_request';
  message: string;
  field: 'from' | 'algorithm';
};

export type CreateReferenceOutcome = { ok: true; result: ReferenceResult } | CreateReferenceError;

const refuse = (
  code: CreateReferenceError['code'],
  message: string,
  field: CreateReferenceError['field'] = 'from',
): CreateReferenceError => ({ ok: false, code, message, field });

/** Types whose `from` is zero-padded on the left to a fixed length. */
const PADDED_TO: Partial<Record<ReferenceType, number>> = { qrr: 26, be_ogm: 10 };

export function createReference(input: CreateReferenceInput): CreateReferenceOutcome {
  const { type } = input;
  const spec = TYPES[type];
  if (input.algorithm !== undefined && type !== 'no_kid') {
    return refuse('invalid_request', '`algorithm` applies to type no_kid only.', 'algorithm');
  }
  const algorithm = input.algorithm ?? 'mod10';
  if (!KID_ALGORITHMS.includes(algorithm)) {
    return refuse('invalid_request', '`algorithm` is mod10 or mod11.', 'algorithm');
  }
  const from = compactReference(String(input.from ?? ''));
  if (from.length === 0)
    return refuse('reference_empty', '`from` is empty: send the number to make the reference from.');
  const { min, max, digitsOnly } = spec.from;
  if (!(digitsOnly ? /^[0-9]+$/ : /^[A-Z0-9]+$/).test(from)) {
    return refuse(
      'reference_characters',
      `A ${spec.name} is made from ${digitsOnly ? 'digits' : 'letters A-Z and digits'} only.`,
    );
  }
  if (from.length < min || from.length > max) {
    const allowed = min === max ? `${min}` : min === 1 ? `up to ${max}` : `${min} to ${max}`;
    return refuse(
      'reference_length',
      `A ${spec.name} is made from ${allowed} characters; \`from\` has ${from.length}.`,
    );
  }
  const body = from.padStart(PADDED_TO[type] ?? 0, '0');
  const check = checkFor(type, body, algorithm);
  if (check === null) {
    return refuse(
      'reference_not_creatable',
      'Mod 11 gives 10 for this number, which a KID cannot carry as a digit: use mod10, or another number.',
    );
  }
  return { ok: true, result: judgeAs(type === 'rf' ? `RF${check}${body}` : body + check, type) };
}
