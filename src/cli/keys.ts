/** `mod97 keys generate|usage|rotate|claim`: the key routes, printed for people. */
import type { CliConfig } from '../config.ts';
import { parseArgs } from 'node:util';
import { clientFor, didYouMean, EXIT, requireKey, serviceError, UsageError, type CliIo } from './io.ts';

export const KEYS_USAGE = `usage:
  mod97 keys generate [--email ADDRESS [--code CODE]] [--source TEXT]
  mod97 keys usage
  mod97 keys rotate
  mod97 keys claim --email ADDRESS [--code CODE]
generate: a free key, shown once (with --email: 200 requests a month; the service may mail a code
          first: run it again with --code)
usage:    the quota of MOD97_API_KEY, or without it the no-key trial of this network
rotate:   a new secret for MOD97_API_KEY; the old one stops working, the quota carries over
claim:    raises an anonymous key to 200 a month: without --code a code is mailed, then run it
          again with --code
The key is read from MOD97_API_KEY only, never from the command line. Add --json for the answer as JSON.`;

/** The keys commands, as the usage names them. */
const KEYS_COMMANDS = [...KEYS_USAGE.matchAll(/^ {2}mod97 keys (\w+)/gm)].map((m) => m[1]);

export async function keysCommand(argv: string[], settings: CliConfig, io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      code: { type: 'string' },
      source: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(KEYS_USAGE);
    return EXIT.ok;
  }
  const [command, ...rest] = positionals;
  if (!command || rest.length) throw new UsageError(command ? 'unexpected arguments' : '', KEYS_USAGE);
  const client = clientFor(settings);
  const print = (answer: object, lines: string[]) => {
    if (values.json) io.out(JSON.stringify(answer, null, 2));
    else for (const line of lines) io.out(line);
  };
  const { email, code, source } = values;
  try {
    switch (command) {
      case 'generate': {
        const k = await client.generateKey({ email, code, source });
        print(k, [
          `api_key: ${k.api_key}`,
          `tier: ${k.tier}, ${k.monthly_limit} requests (${k.basis})`,
          ...(k.notice ? [k.notice] : []),
          'This key is shown only once. Keep it in your environment, e.g.:',
          `  export MOD97_API_KEY=${k.api_key}`,
        ]);
        return EXIT.ok;
      }
      case 'usage': {
        const u = await client.usage();
        const period = u.month ? `month ${u.month}` : `day ${u.day}`;
        print(u, [
          `${u.used} of ${u.limit} used, ${u.remaining} left (${u.basis}, ${period}); tier ${u.tier}${u.key_prefix ? `, key ${u.key_prefix}…` : ''}`,
          ...claimHint(u.claim),
        ]);
        return EXIT.ok;
      }
      case 'rotate': {
        requireKey(settings, KEYS_USAGE);
        const r = await client.rotate();
        print(r, [
          `api_key: ${r.api_key}`,
          `The key ${r.previous_key_prefix}… no longer works; quota and counters carry over. Set:`,
          `  export MOD97_API_KEY=${r.api_key}`,
        ]);
        return EXIT.ok;
      }
      case 'claim': {
        requireKey(settings, KEYS_USAGE);
        if (!email) throw new UsageError('keys claim needs --email', KEYS_USAGE);
        const c = await client.claim({ email, code });
        print(
          c,
          'claimed' in c
            ? [`claimed: tier ${c.tier}, ${c.used} of ${c.limit} used (${c.basis}, month ${c.month})`]
            : [c.message, `then: mod97 keys claim --email ${email} --code CODE`],
        );
        return EXIT.ok;
      }
      default:
        throw new UsageError(`unknown keys command "${command}"${didYouMean(command, KEYS_COMMANDS)}`, KEYS_USAGE);
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return serviceError(io, e);
  }
}

/**
 * A claim is suggested only when it can succeed: an anonymous key that has served a call (a
 * claim before that is 403 unused_key). Before, the step that makes it claimable.
 */
function claimHint(claim: { raises_limit_to: number; first_call_made?: boolean } | undefined): string[] {
  if (!claim) return [];
  if (claim.first_call_made === false)
    return [
      `make the key's first call (e.g. mod97 validate DE89370400440532013000), then claim it for ${claim.raises_limit_to} a month: mod97 keys claim --email ADDRESS`,
    ];
  return [`claim the key for ${claim.raises_limit_to} a month: mod97 keys claim --email ADDRESS`];
}
