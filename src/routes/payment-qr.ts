/**
 * POST /v1/payment/qr and POST /v1/payment/qr/read. Drawing codes (the QR encoder, the PNG
 * codec) is imported on the first call that draws one; images are decoded in a worker thread
 * (read-in-worker.ts) that the first image read starts, and only it imports the QR decoder and
 * the JPEG codec: a start neither parses nor runs them.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paymentQrRoute, readPaymentQrRoute } from '../api/payment-qr.ts';
import { DomainError } from '../errors.ts';
import type { Services } from '../services.ts';
import { checkReadPayment, makePaymentPayload, type PaymentChecker } from '../transfer/payment-qr.ts';
import { readImageInWorker } from '../transfer/read-in-worker.ts';
import { readPayload } from '../transfer/read-payload.ts';
import { paymentChecker } from './payment-checker.ts';
import { attributionFor } from './presentation.ts';
import { served } from './serve.ts';

/** A base64 image, bare or as a `data:` URL; whitespace (line-wrapped base64) is dropped. */
function imageBytes(image: string): Buffer {
  const bare = image.replace(/^data:[\w/+.-]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(bare))
    throw new DomainError('image_unreadable', 'The image is not base64 (A–Z, a–z, 0–9, +, /, = padding).');
  return Buffer.from(bare, 'base64');
}

export const paymentQrRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const check: PaymentChecker = paymentChecker(services);

    app.route({
      ...served(paymentQrRoute),
      handler: async (req) => {
        const { format = 'svg', ...fields } = req.body;
        const made = makePaymentPayload(fields, check);
        if (!made.ok) {
          const fieldsAtFault = [...new Set(made.errors.map((e) => e.field))].join(', ');
          throw new DomainError(
            'payment_data_invalid',
            `This payment cannot be put in ${made.standard === 'epc' ? 'an EPC' : 'a Swiss'} QR code: see errors (${fieldsAtFault}).`,
            { standard: made.standard, errors: made.errors, check: made.check },
          );
        }
        const { standard, payload } = made;
        const { warnings } = made.check;
        const attribution = attributionFor(req.caller, services);
        if (format === 'payload') return { standard, payload, warnings, ...attribution };
        const { drawQr, toPng, toSvg } = await import('../transfer/draw.ts');
        const drawing = drawQr(payload, standard === 'swiss_qr_bill');
        const image =
          format === 'png'
            ? { format, media_type: 'image/png' as const, data: toPng(drawing).toString('base64') }
            : { format, media_type: 'image/svg+xml' as const, data: toSvg(drawing) };
        return { standard, payload, image, warnings, ...attribution };
      },
    });

    app.route({
      ...served(readPaymentQrRoute),
      handler: async (req) => {
        const { payload: sent, image } = req.body;
        if ((sent === undefined) === (image === undefined))
          throw new DomainError('invalid_request', 'Send exactly one of `payload` or `image`.');
        let payload = sent ?? '';
        if (image !== undefined) {
          const decoded = await readImageInWorker(imageBytes(image));
          if (!decoded.ok) throw new DomainError(decoded.code, decoded.message);
          payload = decoded.payload;
        }
        const read = readPayload(payload);
        if (!read.ok) throw new DomainError(read.code, read.message);
        const { standard, fields } = read;
        return {
          standard,
          payload,
          fields,
          check: checkReadPayment(read, check),
          ...attributionFor(req.caller, services),
        };
      },
    });
  };
