/**
 * Payment QR images are read in a worker thread (read-worker.ts): decoding a photo is up to about
 * a second of CPU, which on the main thread would hold every other request of the service for
 * that long. One worker per process, started by the first image read and kept: it reads the
 * images one at a time, in the order they come, so the per-image bounds of read.ts bound the
 * reader too (one image's pixels in memory at a time, one core busy with images), and reads sent
 * together wait their turn. A worker that stopped is replaced for the next image.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../worker-thread.ts';
import type { ImageRead } from './read.ts';
import type { ImageJob, ImageReply } from './read-worker.ts';

/** The worker's module, and its bundle beside dist/server.js (scripts/build.mjs). */
const ENTRY = {
  source: new URL('./read-worker.ts', import.meta.url),
  bundle: new URL('./qr-read-worker.js', import.meta.url),
};

let worker: Worker | null = null;
let next = 0;
const pending = new Map<number, { resolve: (read: ImageRead) => void; reject: (e: Error) => void }>();

function failAll(message: string): void {
  for (const p of pending.values()) p.reject(new Error(message));
  pending.clear();
}

function ensure(): Worker {
  if (worker) return worker;
  const w = startWorker(ENTRY);
  w.on('message', (reply: ImageReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (pending.size === 0) w.unref();
    if ('read' in reply) p.resolve(reply.read);
    else p.reject(new Error(`the image reader failed: ${reply.error}`));
  });
  w.on('error', (err) => {
    if (worker === w) worker = null;
    failAll(`the image reader failed: ${err.message}`);
  });
  w.on('exit', (code) => {
    if (worker === w) worker = null;
    failAll(`the image reader stopped (exit ${code})`);
  });
  worker = w;
  return w;
}

/** The text of the QR code in a PNG or JPEG (read.ts, readImage), read in the worker. */
export function readImageInWorker(bytes: Buffer): Promise<ImageRead> {
  return new Promise((resolve, reject) => {
    const id = ++next;
    pending.set(id, { resolve, reject });
    const job: ImageJob = { id, bytes };
    const w = ensure();
    // Held while it has images to read, so that an answer awaited is never cut short; idle, it
    // does not keep the process alive.
    w.ref();
    w.postMessage(job);
  });
}
