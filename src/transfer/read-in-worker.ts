/**
 * Payment QR images are read in a worker thread (read-worker.ts): decoding a photo is up to about
 * a second of CPU, which on the main thread would hold every other request of the service for
 * that long. One worker per process, started by the first image read and kept: it reads the
 * images one at a time, in the order they come, so the per-image bounds of read.ts bound the
 * reader too (one image's pixels in memory at a time, one core busy with images), and reads sent
 * together wait their turn. A worker that stopped is replaced for the next image.
 */
import { startWorker, workerClient } from '../worker-thread.ts';
import type { ImageRead } from './read.ts';
import type { ImageJob, ImageReply } from './read-worker.ts';

/** The worker's module, and its bundle beside dist/server.js (scripts/build.mjs). */
const ENTRY = {
  source: new URL('./read-worker.ts', import.meta.url),
  bundle: new URL('./qr-read-worker.js', import.meta.url),
};

const reader = workerClient<Omit<ImageJob, 'id'>, ImageRead, ImageReply>(() => startWorker(ENTRY), {
  answer(reply) {
    if ('read' in reply) return reply.read;
    throw new Error(`the image reader failed: ${reply.error}`);
  },
  failed: (err) => `the image reader failed: ${err.message}`,
  stopped: (code) => `the image reader stopped (exit ${code})`,
});

/** The text of the QR code in a PNG or JPEG (read.ts, readImage), read in the worker. */
export const readImageInWorker = (bytes: Buffer): Promise<ImageRead> => reader.send({ bytes });
