/**
 * `mod97 reference validate REFERENCE...` and `mod97 reference create --type T FROM`: payment
 * references (docs/api.md, "Payment references"); one line each, or the service's JSON with --json.
 */
import { parseArgs } from 'node:util';
import type { ReferenceResult } from '../../clients/typescript/src/index.ts';
import type { CliConfig } from '../config.ts';
import { KID_ALGORITHMS, REFERENCE_TYPES, type KidAlgorithm, type ReferenceType } from '../reference/types.ts';
import { clientFor, EXIT, requireKey, serviceError, UsageError, type CliIo } from './io.ts';

export const REFERENCE_USAGE = `usage: mod97 reference validate [--type TYPE] [--country CC] [--json] REFERENCE...
       mod97 reference create --type TYPE [--algorithm mod10|mod11] [--json] FROM
validate: checks each payment reference and prints one line per reference, tab-separated: its
print form, its type, "valid" or "invalid", and for an invalid one its error ("code: ..."), then
the references one typo away (RF and Belgian only). Quote a reference written with spaces or +:
mod97 reference validate "RF18 5390 0754 7034" "+++090/9337/55493+++".
create: makes the reference of TYPE from your own number FROM (an invoice or customer number)
and prints its print form and its electronic form.
TYPE: ${REFERENCE_TYPES.join(', ')} (without --type, validate tells RF, +++...+++ and 27-digit
QR references by their form, and --country BE, CH, LI, FI, NO or SE names the others).
  --json   print the service's answer instead: one JSON object per line
Needs a key in MOD97_API_KEY (1 request per reference).
exit: 0 all valid (create: made), 1 one or more invalid, 2 wrong usage or a service error`;

const isType = (value: string | undefined): value is ReferenceType => REFERENCE_TYPES.some((type) => type === value);
const isAlgorithm = (value: string | undefined): value is KidAlgorithm =>
  KID_ALGORITHMS.some((algorithm) => algorithm === value);

function line(r: ReferenceResult): string {
  const errors = r.errors.map((e) => `${e.code}: ${e.message.replace(/\s+/g, ' ').trim()}`).join('; ');
  const hint = r.suggestions.length ? `\tdid you mean ${r.suggestions.join(' or ')}?` : '';
  const verdict = `${r.formatted || r.reference}\t${r.type ?? 'unknown type'}\t${r.valid ? 'valid' : 'invalid'}`;
  return errors ? `${verdict}\t${errors}${hint}` : verdict;
}

export async function referenceCommand(argv: string[], settings: CliConfig, io: CliIo): Promise<number> {
  const [action, ...rest] = argv;
  const { positionals, values } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      type: { type: 'string' },
      country: { type: 'string' },
      algorithm: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || action === '--help' || action === '-h') {
    io.out(REFERENCE_USAGE);
    return EXIT.ok;
  }
  if (action !== 'validate' && action !== 'create') throw new UsageError('say validate or create', REFERENCE_USAGE);
  if (values.type !== undefined && !isType(values.type)) {
    throw new UsageError(`--type is one of ${REFERENCE_TYPES.join(', ')}`, REFERENCE_USAGE);
  }
  if (values.algorithm !== undefined && !isAlgorithm(values.algorithm)) {
    throw new UsageError('--algorithm is mod10 or mod11', REFERENCE_USAGE);
  }
  if (!positionals.length)
    throw new UsageError(`give at least one ${action === 'validate' ? 'reference' : 'number'}`, REFERENCE_USAGE);
  requireKey(settings, REFERENCE_USAGE);
  const client = clientFor(settings);
  const type = isType(values.type) ? values.type : undefined;
  if (action === 'create') {
    if (!type) throw new UsageError('create needs --type', REFERENCE_USAGE);
    if (positionals.length > 1) throw new UsageError('create takes one number', REFERENCE_USAGE);
    try {
      const algorithm = isAlgorithm(values.algorithm) ? values.algorithm : undefined;
      const r = await client.createReference({ type, from: positionals[0] ?? '', ...(algorithm && { algorithm }) });
      io.out(values.json ? JSON.stringify(r) : `${r.formatted}\t${r.reference}`);
      return EXIT.ok;
    } catch (e) {
      return serviceError(io, e);
    }
  }
  let invalid = 0;
  for (const reference of positionals) {
    try {
      const r = await client.validateReference(reference, {
        ...(type && { type }),
        ...(values.country && { country: values.country }),
      });
      if (!r.valid) invalid++;
      io.out(values.json ? JSON.stringify(r) : line(r));
    } catch (e) {
      return serviceError(io, e);
    }
  }
  return invalid ? EXIT.failed : EXIT.ok;
}
