/**
 * The worker thread that reads payment QR images (read-in-worker.ts): the decoding of a photo,
 * up to about a second of CPU, runs here, never on the thread that answers requests. Jobs are
 * read one at a time, in the order they come: each is answered before the next message is taken.
 */
import { parentPort } from 'node:worker_threads';
import { messageOf } from '../thrown.ts';
import { type ImageRead, readImage } from './read.ts';

export interface ImageJob {
  id: number;
  /** The image's bytes (a Buffer arrives as a Uint8Array). */
  bytes: Uint8Array;
}

/** The read, or `error` when the reader itself failed (not the image's fault). */
export type ImageReply = { id: number; read: ImageRead } | { id: number; error: string };

parentPort?.on('message', ({ id, bytes }: ImageJob) => {
  let reply: ImageReply;
  try {
    reply = { id, read: readImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) };
  } catch (err) {
    reply = { id, error: messageOf(err) };
  }
  parentPort?.postMessage(reply);
});
