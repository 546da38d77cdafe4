/**
 * `mod97 extract [FILE|-]`: every IBAN in a text, one line each; exit 0 all found are valid,
 * 1 one is not or none was found, 2 usage or service error.
 */
import type { CliConfig } from '../config.ts';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { ExtractResult } from '../../clients/typescript/src/index.ts';
import { LIMITS } from '../plans.ts';
import { checkReadable, clientFor, EXIT, Refusal, requireKey, serviceError, UsageError, type CliIo } from './io.ts';
import { messageOf } from '../thrown.ts';

export const EXTRACT_USAGE = `usage: mod97 extract [FILE|-]
Finds every IBAN in a text file (standard input with - or without FILE) with the service and
prints one line per IBAN found, tab-separated: its offset in the text (UTF-16 code units from
the start, after any byte-order mark), the IBAN (grouped by four), "valid" or "invalid", the
error codes, and a hint (the IBAN a misread scanned character stands for, or what was meant).
A text over ${LIMITS.extractMaxChars} characters is sent in parts cut at line breaks (no IBAN spans one).
Needs MOD97_API_KEY: 1 request per part.
exit: 0 all found are valid, 1 one or more invalid or none found, 2 wrong usage or a service error`;

export async function extractCommand(
  argv: string[],
  settings: CliConfig,
  io: CliIo,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.out(EXTRACT_USAGE);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError('give one FILE, or - for standard input', EXTRACT_USAGE);
  requireKey(settings, EXTRACT_USAGE);
  const source = positionals[0] ?? '-';
  let text: string;
  if (source !== '-') checkReadable(source);
  try {
    text = source === '-' ? await readAll(stdin) : await readFile(source, 'utf8');
  } catch (e) {
    throw new Refusal(`cannot read ${source === '-' ? 'standard input' : source}: ${messageOf(e)}`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const client = clientFor(settings);
  let found = 0;
  let invalid = 0;
  for (const part of partsOf(text, LIMITS.extractMaxChars)) {
    let answer: ExtractResult;
    try {
      answer = await client.extract(part.text);
    } catch (e) {
      return serviceError(io, e);
    }
    for (const item of answer.items) {
      found++;
      if (!item.valid) invalid++;
      io.out(lineOf(item, part.offset));
    }
  }
  if (found === 0) io.err('no IBAN found');
  return found === 0 || invalid > 0 ? EXIT.failed : EXIT.ok;
}

function lineOf(item: ExtractResult['items'][number], offset: number): string {
  const errors = item.errors.map((e) => e.code).join(', ');
  const group = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');
  const hint = item.ocr_repair
    ? `\tscanned text: read as ${group(item.ocr_repair.iban)}?`
    : item.suggestions.length
      ? `\tdid you mean ${item.suggestions.map(group).join(' or ')}?`
      : '';
  const verdict = item.valid ? 'valid' : `invalid\t${errors}${hint}`;
  return `${offset + item.start}\t${item.formatted}\t${verdict}`;
}

/**
 * The text in parts of at most `max` UTF-16 code units, cut after line breaks (which no IBAN
 * spans), each with its offset; a line longer than `max` is a part of its own (the service
 * refuses it, so the command says so rather than cut through an IBAN).
 */
export function partsOf(text: string, max: number): { text: string; offset: number }[] {
  if (text.length === 0) return [];
  const parts: { text: string; offset: number }[] = [];
  let start = 0;
  while (start < text.length) {
    if (text.length - start <= max) {
      parts.push({ text: text.slice(start), offset: start });
      break;
    }
    const lastBreak = Math.max(text.lastIndexOf('\n', start + max - 1), text.lastIndexOf('\r', start + max - 1));
    let end = lastBreak >= start ? lastBreak + 1 : -1;
    if (end === -1) {
      const next = text.slice(start).search(/[\r\n]/);
      end = next === -1 ? text.length : start + next + 1;
    }
    parts.push({ text: text.slice(start, end), offset: start });
    start = end;
  }
  return parts;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
