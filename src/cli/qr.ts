/**
 * `mod97 qr …`: the QR code of a payment, written to a file (SVG or PNG) or printed as its
 * payload; `mod97 qr read FILE`: a payment QR code read back from an image or a payload file.
 */
import type { CliConfig } from '../config.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { Mod97Error, type PaymentQrInput, type PaymentQrReadResult } from '../../clients/typescript/src/index.ts';
import { messageOf } from '../thrown.ts';
import { clientFor, EXIT, requireKey, serviceError, UsageError, type CliIo } from './io.ts';

export const QR_USAGE = `usage: mod97 qr --iban IBAN --name NAME [--amount 12.50] [--currency EUR|CHF]
                [--reference REF] [--remittance TEXT] [--bic BIC] [--standard epc|swiss_qr_bill]
                [--street S --building-number N --postal-code P --town T --country CC]
                [--out FILE.svg|FILE.png]
       mod97 qr read FILE
Makes the QR code a banking app scans to pay: an EPC QR code ("GiroCode", EUR), or for a CH or
LI IBAN a Swiss QR-bill code (which needs the creditor's address). With --out the code is
written as SVG or PNG (by the file's extension) and the payload printed; without, the payload.
The currency is CHF for a CH or LI IBAN, EUR otherwise, unless given. A warning of the payment
check (a remittance text left out beside a reference, a BIC not the IBAN's bank's) goes to stderr.
\`qr read FILE\` reads a PNG or JPEG of a code (or a text file holding a payload) and prints its
fields, one per line, and the payment check.
Needs MOD97_API_KEY: 1 request per call.
exit: 0 done (read: the payment checks out), 1 the payment cannot be coded (read: it does not
check out), 2 wrong usage or a service error`;

const MAKE_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  iban: { type: 'string' },
  name: { type: 'string' },
  bic: { type: 'string' },
  amount: { type: 'string' },
  currency: { type: 'string' },
  reference: { type: 'string' },
  remittance: { type: 'string' },
  standard: { type: 'string' },
  street: { type: 'string' },
  'building-number': { type: 'string' },
  'postal-code': { type: 'string' },
  town: { type: 'string' },
  country: { type: 'string' },
  out: { type: 'string' },
} as const;

export async function qrCommand(argv: string[], settings: CliConfig, io: CliIo): Promise<number> {
  if (argv[0] === 'read') return readCommand(argv.slice(1), settings, io);
  const { values, positionals } = parseArgs({ args: argv, options: MAKE_OPTIONS, allowPositionals: true });
  if (values.help) {
    io.out(QR_USAGE);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`, QR_USAGE);
  if (!values.iban || !values.name) throw new UsageError('give --iban and --name', QR_USAGE);
  const format = values.out === undefined ? 'payload' : extname(values.out).toLowerCase().slice(1);
  if (format !== 'payload' && format !== 'svg' && format !== 'png')
    throw new UsageError('--out names a .svg or .png file', QR_USAGE);
  if (values.standard !== undefined && values.standard !== 'epc' && values.standard !== 'swiss_qr_bill')
    throw new UsageError('--standard is epc or swiss_qr_bill', QR_USAGE);
  requireKey(settings, QR_USAGE);
  const swiss = /^\s*(CH|LI)/i.test(values.iban);
  const address =
    values.street || values.town || values['postal-code'] || values.country
      ? {
          street: values.street ?? '',
          ...(values['building-number'] && { building_number: values['building-number'] }),
          postal_code: values['postal-code'] ?? '',
          town: values.town ?? '',
          country: values.country ?? '',
        }
      : undefined;
  const payment: PaymentQrInput = {
    creditor: {
      iban: values.iban,
      name: values.name,
      ...(values.bic && { bic: values.bic }),
      ...(address && { address }),
    },
    currency: values.currency ?? (swiss ? 'CHF' : 'EUR'),
    ...(values.amount && { amount: values.amount }),
    ...(values.reference && { reference: values.reference }),
    ...(values.remittance && { remittance: values.remittance }),
    ...(values.standard && { standard: values.standard }),
    format,
  };
  let answer: Awaited<ReturnType<ReturnType<typeof clientFor>['paymentQr']>>;
  try {
    answer = await clientFor(settings).paymentQr(payment);
  } catch (e) {
    if (e instanceof Mod97Error && e.code === 'payment_data_invalid') {
      io.err(`error: ${e.body.message}`);
      for (const fault of Array.isArray(e.body.errors) ? e.body.errors : [])
        io.err(`  ${fault.field}: ${fault.message} (${fault.code})`);
      return EXIT.failed;
    }
    return serviceError(io, e);
  }
  if (values.out && answer.image) {
    const data = answer.image.format === 'png' ? Buffer.from(answer.image.data, 'base64') : answer.image.data;
    try {
      await writeFile(values.out, data);
    } catch (e) {
      throw new UsageError(`cannot write ${values.out}: ${messageOf(e)}`, QR_USAGE);
    }
    io.err(`wrote ${values.out} (${answer.standard === 'epc' ? 'EPC QR code' : 'Swiss QR-bill code'})`);
  }
  for (const w of answer.warnings) io.err(`warning: ${w.field}: ${w.message} (${w.code})`);
  io.out(answer.payload);
  return EXIT.ok;
}

async function readCommand(argv: string[], settings: CliConfig, io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.out(QR_USAGE);
    return EXIT.ok;
  }
  const [file] = positionals;
  if (file === undefined || positionals.length !== 1)
    throw new UsageError('give one FILE (a PNG or JPEG, or a payload)', QR_USAGE);
  requireKey(settings, QR_USAGE);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${messageOf(e)}`, QR_USAGE);
  }
  const isImage = bytes.subarray(0, 4).toString('latin1') === '\x89PNG' || (bytes[0] === 0xff && bytes[1] === 0xd8);
  let answer: PaymentQrReadResult;
  try {
    answer = await clientFor(settings).readPaymentQr(
      isImage ? { image: bytes.toString('base64') } : { payload: bytes.toString('utf8').replace(/\r?\n$/, '') },
    );
  } catch (e) {
    return serviceError(io, e);
  }
  io.out(`standard\t${answer.standard}`);
  for (const [name, value] of flatten(answer.fields)) if (name !== 'standard') io.out(`${name}\t${value}`);
  const { check } = answer;
  io.out(`check\t${check.valid ? 'valid' : 'invalid'}`);
  for (const fault of check.errors) io.out(`error\t${fault.field}\t${fault.code}\t${fault.message}`);
  for (const w of check.warnings) io.out(`warning\t${w.field}\t${w.code}\t${w.message}`);
  return check.valid ? EXIT.ok : EXIT.failed;
}

/** `creditor.address.town` → value, in the fields' order. */
function flatten(value: unknown, prefix = ''): [string, string][] {
  if (typeof value !== 'object' || value === null) return [[prefix, String(value)]];
  return Object.entries(value).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}
