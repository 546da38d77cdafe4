/** `mod97 validate IBAN...`: one line per IBAN; exit 0 all valid, 1 one is not, 2 usage or service error. */
import { parseArgs } from 'node:util';
import { clientFor, EXIT, serviceError, UsageError, type CliIo } from './io.ts';

export const VALIDATE_USAGE = `usage: mod97 validate IBAN...
Checks each IBAN with the service and prints one line per IBAN, tab-separated:
the IBAN (grouped by four), "valid" or "invalid", and the error codes.
Quote an IBAN written with spaces: mod97 validate "DE89 3704 0044 0532 0130 00".
Uses MOD97_API_KEY when set (1 request per IBAN), else the no-key trial (25 a day).
exit: 0 all valid, 1 one or more invalid, 2 wrong usage or a service error`;

export async function validateCommand(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.out(VALIDATE_USAGE);
    return EXIT.ok;
  }
  if (!positionals.length) throw new UsageError('give at least one IBAN', VALIDATE_USAGE);
  const client = clientFor(env);
  let invalid = 0;
  for (const iban of positionals) {
    try {
      const r = await client.validate(iban);
      if (!r.valid) invalid++;
      const errors = r.errors.map((e) => e.code).join(', ');
      const hint = r.suggestions.length ? `\tdid you mean ${r.suggestions.join(' or ')}?` : '';
      io.out(`${r.formatted || iban}\t${r.valid ? 'valid' : 'invalid'}${errors ? `\t${errors}${hint}` : ''}`);
    } catch (e) {
      return serviceError(io, e);
    }
  }
  return invalid ? EXIT.failed : EXIT.ok;
}
