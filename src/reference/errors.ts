/** Every error code a reference's validation or creation answers, with its message. */
export const REFERENCE_ERROR_CODES = {
  reference_empty: 'No reference was given.',
  reference_characters: 'The reference holds characters its type does not allow.',
  reference_length: 'The reference does not have a length its type allows.',
  reference_check_failed: 'The check digits do not match: probably a typing error.',
  reference_type_unknown: 'The type of the reference cannot be told: send `type` or `country`.',
} as const satisfies Record<string, string>;

export type ReferenceErrorCode = keyof typeof REFERENCE_ERROR_CODES;

export interface ReferenceFault {
  code: ReferenceErrorCode;
  message: string;
  /** reference_type_unknown only: the types whose characters, length and check the reference satisfies. */
  candidates?: string[];
}
