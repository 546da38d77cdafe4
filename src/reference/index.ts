/** The pure engine of payment references (RF, QR reference, Belgian, Finnish, Norwegian, Swedish). */
export { validateReference, type ReferenceResult, type ValidateReferenceOptions } from './validate.ts';
export { createReference, type CreateReferenceInput, type CreateReferenceOutcome } from './create.ts';
export { REFERENCE_ERROR_CODES, type ReferenceFault, type ReferenceErrorCode } from './errors.ts';
export { REFERENCE_TYPES, KID_ALGORITHMS, type KidAlgorithm, type ReferenceType } from './types.ts';
export { MAX_REFERENCE_SUGGESTIONS } from './suggest.ts';
