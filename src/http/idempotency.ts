/**
 * Safe retries (docs/api.md, "Safe retries (Idempotency-Key)"): a metered POST sent with an
 * Idempotency-Key is answered once. The same key, method, path and body within 24 hours gets
 * that first answer again, charged nothing; the key on another request is 422; while the first
 * is still being answered, 409. Two steps of the pipeline (pipeline.ts): 3a judges the key
 * after credentials and before any charge, so a replay is never charged; 11a keeps a 2xx answer
 * (never one carrying a key secret) once its status is final, or frees the key for a retry.
 * Between them, step 4 makes the key's entry durable with the charge: a retry of a request whose
 * process died before its answer was kept is answered again without a second charge.
 *
 * What is stored is bounded (docs/api.md, "Safe retries (Idempotency-Key)"): the Idempotency-Key only as its keyed hash (a client
 * may send a secret as one; an API key is refused outright), and an answer only up to 64 KiB.
 * A larger one is not kept, only that it was given: its retry is 409
 * `idempotency_answer_not_kept`, uncharged. So an entry is at most ~65 KiB, whatever is asked.
 */
import { hash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { KEY_ANYWHERE } from '../keys/secret.ts';
import type { IdempotentAnswer, Store } from '../store/types.ts';
import { BODY_DIGEST, UNSUPPORTED_MEDIA } from './body.ts';

/** How long a first answer is given back. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A reservation older than this was left by a request that never finished (its process died). */
const STALE_AFTER_MS = 60_000;
/** How often each process deletes expired entries, on the first request with a key after that. */
const PURGE_EVERY_MS = 3_600_000;

/** The largest answer kept for retries; a larger one is answered once and not kept. */
export const MAX_KEPT_ANSWER_BYTES = 64 * 1024;

const VALID_KEY = /^[\x21-\x7e]{1,255}$/;
/** One-shot: a third of the cost of a Hash object for a text this short. */
const sha256 = (text: string) => hash('sha256', text);
const EMPTY_BODY = sha256('');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes an Idempotency-Key (its declaration says so: every metered POST). */
    idempotent?: boolean;
  }
}

/** `hashKey` is the keyed hash secrets are stored by (the key pepper's HMAC, keys/secret.ts). */
export function idempotencySteps(store: Store, clock: Clock, hashKey: (idempotencyKey: string) => string) {
  let nextPurge = 0;

  async function purgeIfDue(req: FastifyRequest, now: number): Promise<void> {
    if (now < nextPurge) return;
    nextPurge = now + PURGE_EVERY_MS;
    // Expired entries answer nothing (a reservation takes them over); deleting them only saves room.
    await store.purgeIdempotency(now).catch((err: unknown) => req.log.warn({ err }, 'idempotency: purge failed'));
  }

  return {
    /** Step 3a: the answer kept for this request when it has been answered here (a replay); throws 400, 409 or 422. */
    async judge(req: FastifyRequest): Promise<IdempotentAnswer | null> {
      const key = req.headers['idempotency-key'];
      if (key === undefined) return null;
      if (typeof key === 'string' && KEY_ANYWHERE.test(key)) {
        throw new DomainError(
          'key_in_idempotency_key',
          'Never send an API key as the Idempotency-Key: send a fresh random value (a UUID) with each request, and the key in the Authorization: Bearer header. This key was not used, and nothing was kept.',
          { field: 'Idempotency-Key' },
        );
      }
      if (typeof key !== 'string' || !VALID_KEY.test(key)) {
        throw new DomainError(
          'invalid_request',
          'Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces), sent once; a UUID is a good choice.',
          { field: 'Idempotency-Key' },
        );
      }
      const now = clock();
      await purgeIfDue(req, now);
      const { caller } = req;
      const scope = caller.key ? `key:${caller.key.id}` : `net:${caller.network}`;
      // A body that is not JSON is never read: its content type stands for it (it is refused anyway).
      const digest =
        req[BODY_DIGEST] ?? (req.body === UNSUPPORTED_MEDIA ? `unread ${req.headers['content-type']}` : EMPTY_BODY);
      const fingerprint = sha256(`${req.method} ${req.url}\n${digest}`);
      const token = randomUUID();
      const hashed = hashKey(key);
      const claim = await store.reserveIdempotency({
        scope,
        key: hashed,
        fingerprint,
        token,
        now,
        expiresAt: now + IDEMPOTENCY_TTL_MS,
        staleBefore: now - STALE_AFTER_MS,
      });
      switch (claim.state) {
        case 'reserved':
        case 'resumed':
          // Step 4 writes the entry with the charge, or skips the charge of a resumed request.
          caller.idempotency = { hold: { scope, key: hashed, token }, resumed: claim.state === 'resumed' };
          return null;
        case 'in_progress':
          throw new DomainError(
            'idempotency_in_progress',
            'A request with this Idempotency-Key is still being answered. Retry it in a moment to receive its answer; it is charged once.',
          );
        case 'mismatch':
          throw new DomainError(
            'idempotency_key_reused',
            'This Idempotency-Key was used in the last 24 hours for another request (another method, path or body). Send a new key with each new request.',
          );
        case 'not_kept':
          throw new DomainError(
            'idempotency_answer_not_kept',
            `The request with this Idempotency-Key was answered (and charged) once, but its answer was over ${MAX_KEPT_ANSWER_BYTES / 1024} KiB and was not kept, so it cannot be given again. This retry was not charged. To ask again, resend the request without the Idempotency-Key (or with a new one): that is a new call, charged as such.`,
          );
        case 'done':
          return claim.answer;
      }
    },

    /** Step 3a's answer to a replay: the kept answer, marked as such. */
    replay(reply: FastifyReply, answer: IdempotentAnswer): FastifyReply {
      return reply
        .code(answer.status)
        .header('content-type', answer.contentType)
        .header('idempotent-replayed', 'true')
        .send(answer.body);
    },

    /** This request holds its Idempotency-Key: step 11a has its answer to keep, or the key to free. */
    holds(req: FastifyRequest): boolean {
      return req.caller?.idempotency != null;
    },

    /** Step 11a: keeps the final answer when it is a 2xx without a key secret; otherwise frees the key. */
    async settle(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
      const held = req.caller?.idempotency;
      if (!held) return;
      req.caller.idempotency = null;
      const { scope, key, token } = held.hold;
      const status = reply.statusCode;
      try {
        // A route whose answers are all declared without a key secret (no-store.ts) is not scanned.
        const mayCarrySecret = req.routeOptions.config.mayAnswerSecret !== false;
        // A long answer may go out as a Buffer (json-in-parts.ts): the same text.
        const text = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : undefined;
        if (status >= 200 && status < 300 && text !== undefined && !(mayCarrySecret && carriesSecret(String(text)))) {
          const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
          const answer =
            Buffer.byteLength(text) > MAX_KEPT_ANSWER_BYTES
              ? { status, contentType: null, body: null }
              : { status, contentType, body: String(text) };
          if (await store.completeIdempotency(scope, key, token, answer)) return;
        }
        // A refused call was refunded: its retry is judged afresh.
        await store.releaseIdempotency(scope, key, token);
      } catch (err) {
        // The answer still goes out. The entry stays unanswered, so a retry is resumed without a
        // second charge (at once on SQLite, after STALE_AFTER_MS on PostgreSQL).
        req.log.warn({ err }, 'idempotency: the answer could not be kept');
      }
    },
  };
}

export type IdempotencySteps = ReturnType<typeof idempotencySteps>;

function carriesSecret(payload: string): boolean {
  return payload.includes('ifk_') && KEY_ANYWHERE.test(payload);
}
