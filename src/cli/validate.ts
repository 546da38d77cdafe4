/** `mod97 validate IBAN...`: one line per IBAN; exit 0 all valid, 1 one is not, 2 usage or service error. */
import type { CliConfig } from '../config.ts';
import { parseArgs } from 'node:util';
import { Mod97Error, type ValidateResult } from '../../clients/typescript/src/index.ts';
import { clientFor, EXIT, serviceError, UsageError, type CliIo } from './io.ts';

export const VALIDATE_USAGE = `usage: mod97 validate [--json] IBAN...
Checks each IBAN with the service and prints one line per IBAN, tab-separated:
the IBAN (grouped by four), "valid" or "invalid"; for a valid one whose bank no loaded register
lists, "bank not found in the loaded registers"; for an invalid one each error as its code and
what it means ("checksum_failed: ..."), then the valid IBANs one typo away with their banks.
Quote an IBAN written with spaces: mod97 validate "DE89 3704 0044 0532 0130 00".
  --json   print the service's answer instead: one JSON object per IBAN, one per line
Uses MOD97_API_KEY when set (1 request per IBAN), else the no-key trial (25 a day).
exit: 0 all valid, 1 one or more invalid, 2 wrong usage or a service error`;

const UNLISTED = 'bank not found in the loaded registers';

/** Each suggestion in print form with its bank, or marked when no register lists its bank. */
function suggested(r: ValidateResult): string[] {
  const details = r.suggestion_details;
  if (!details) return r.suggestions;
  return details.map((d) => `${d.formatted} (${d.bank?.name ?? UNLISTED})`);
}

export async function validateCommand(argv: string[], settings: CliConfig, io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.out(VALIDATE_USAGE);
    return EXIT.ok;
  }
  if (!positionals.length) throw new UsageError('give at least one IBAN', VALIDATE_USAGE);
  const client = clientFor(settings);
  let invalid = 0;
  for (const iban of positionals) {
    try {
      const r = await client.validate(iban);
      if (!r.valid) invalid++;
      if (values.json) {
        io.out(JSON.stringify(r));
        continue;
      }
      const errors = r.errors.map((e) => `${e.code}: ${e.message.replace(/\s+/g, ' ').trim()}`).join('; ');
      const hint = r.suggestions.length ? `\tdid you mean ${suggested(r).join(' or ')}?` : '';
      // A valid IBAN at a bank no register lists is said so: the checksum alone names no bank.
      const unlisted = r.valid && r.bank === null ? `\t${UNLISTED}` : '';
      io.out(
        `${r.formatted || iban}\t${r.valid ? 'valid' : 'invalid'}${unlisted}${errors ? `\t${errors}${hint}` : ''}`,
      );
    } catch (e) {
      // One argument the service refuses to read as an IBAN (over 64 characters) is that
      // argument's answer; the others are still checked.
      if (!(e instanceof Mod97Error && e.status === 400 && e.code === 'invalid_request')) return serviceError(io, e);
      invalid++;
      io.out(values.json ? JSON.stringify(e.body) : `${iban}\tinvalid\t${e.code}: ${e.message}`);
    }
  }
  return invalid ? EXIT.failed : EXIT.ok;
}
