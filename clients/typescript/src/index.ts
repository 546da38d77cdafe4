/**
 * The typed mod97 client, the package mod97-client (`import { Mod97, Mod97Error } from
 * 'mod97-client'`, or `'mod97/client'` from the service's own package).
 *
 * Fetch only (Node 18+, browsers, workers): no Node module is imported, and every import from
 * the routes is a type import, so the built JavaScript depends on nothing but `fetch`. The
 * answer types are the route schemas' own (`Static<typeof Schema>`), never written twice; the
 * build writes them out in the published declarations (scripts/build.mjs), which import nothing.
 */
import type { Static } from 'typebox';
import type { ErrorBody, ErrorCode } from '../../../src/api/schemas.ts';
import type {
  BatchAnswer,
  BatchItem,
  ExtractAnswer,
  FromAccountAnswer,
  FromAccountBody,
  ValidateAnswer,
} from '../../../src/api/iban-schemas.ts';
import type { Claimed, CodeSent, DailyReport, KeyCreated, Rotated, Usage } from '../../../src/api/keys-schemas.ts';
import type { BicAnswer, ClearingAnswer, ComplianceAnswer } from '../../../src/api/lookup-schemas.ts';
import type {
  PaymentQrAnswer,
  PaymentQrBody,
  PaymentQrReadAnswer,
  PaymentQrReadBody,
} from '../../../src/api/payment-qr-schemas.ts';
import type { PaymentCheckAnswer, PaymentCheckBody } from '../../../src/api/payment-check-schemas.ts';
import type {
  ReferenceAnswer,
  ReferenceCreateBody,
  ReferenceValidateBody,
} from '../../../src/api/references-schemas.ts';

/** The `X-Quota-*` headers of an answer: the key's balance after this call (and any refund). */
export interface Quota {
  used: number;
  limit: number;
  remaining: number;
  /** `YYYY-MM`, the current UTC month. */
  month: string;
  /** Present (true) only on a quota-exhausted 402. */
  exhausted?: true;
}

/** An answer with its quota headers as a non-enumerable `quota` (absent when no key was sent). */
export type Answer<T> = T & { readonly quota?: Quota };

export type ValidateResult = Static<typeof ValidateAnswer>;
export type BatchResult = Static<typeof BatchAnswer>;
/** An IBAN, or an IBAN with the BIC it came with (the answer then carries `bic_check`). */
export type BatchInput = Static<typeof BatchItem>;
export type FromAccountInput = Static<typeof FromAccountBody>;
export type ExtractResult = Static<typeof ExtractAnswer>;
export type FromAccountResult = Static<typeof FromAccountAnswer>;
export type BicResult = Static<typeof BicAnswer>;
export type PaymentQrInput = Static<typeof PaymentQrBody>;
export type PaymentQrResult = Static<typeof PaymentQrAnswer>;
/** Exactly one of `payload` (the text) or `image` (a PNG or JPEG, base64). */
export type PaymentQrReadInput = Static<typeof PaymentQrReadBody>;
export type PaymentQrReadResult = Static<typeof PaymentQrReadAnswer>;
export type ComplianceResult = Static<typeof ComplianceAnswer>;
export type ClearingResult = Static<typeof ClearingAnswer>;
export type UsageResult = Static<typeof Usage>;
export type DailyUsageResult = Static<typeof DailyReport>;
export type KeyCreatedResult = Static<typeof KeyCreated>;
export type RotatedResult = Static<typeof Rotated>;
export type ClaimCodeSent = Static<typeof CodeSent>;
export type ClaimedResult = Static<typeof Claimed>;
export type ReferenceResult = Static<typeof ReferenceAnswer>;
export type ReferenceValidateOptions = Omit<Static<typeof ReferenceValidateBody>, 'reference'>;
export type ReferenceCreateInput = Static<typeof ReferenceCreateBody>;
export type PaymentInput = Static<typeof PaymentCheckBody>;
export type PaymentCheckResult = Static<typeof PaymentCheckAnswer>;
export type ErrorResult = Static<typeof ErrorBody> & Record<string, unknown>;

/**
 * Every member takes `undefined` as it takes leaving it out, so a value that may be missing
 * (`process.env.MOD97_API_KEY`) is passed as it is, under `exactOptionalPropertyTypes` too.
 */
export interface Mod97Options {
  /** The service, e.g. `https://api.example.com`; default `http://127.0.0.1:3000`. */
  baseUrl?: string | undefined;
  /**
   * Sent as `Authorization: Bearer`; never in a URL or a body. Spaces, tabs and line breaks
   * around it are dropped; a key still holding anything but visible ASCII (a line break, space
   * or tab inside, a control or non-ASCII character) is never sent: each call throws
   * `invalid_api_key` with status 0, its message not showing the key.
   */
  apiKey?: string | undefined;
  /**
   * The fetch to use. Give `wrapFetchWithPayment(fetch, x402client)` from `@x402/fetch` and a
   * 402 that carries x402 requirements is paid and sent again by that fetch itself.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /** Per attempt, in ms (default 30,000). */
  timeoutMs?: number | undefined;
  /** Further attempts where a retry is safe (default 2). */
  retries?: number | undefined;
}

/** A code of the service's error table, or the client's own for no answer or an unreadable one. */
export type Mod97ErrorCode = ErrorCode | 'connection_failed' | 'timeout' | 'invalid_response';

/**
 * A refusal or a failure. `code` equals `body.error`. With no HTTP answer at all, `status` is 0
 * and `code` is `connection_failed` or `timeout` (a metered GET may then have been counted; a
 * metered POST was sent with an Idempotency-Key, so it is counted at most once), or
 * `invalid_api_key` for a key no header can carry (nothing was sent).
 */
export class Mod97Error extends Error {
  readonly status: number;
  /** Typed with the codes this client knows; a newer service may answer others. */
  readonly code: Mod97ErrorCode | (string & {});
  readonly body: ErrorResult;
  declare readonly quota?: Quota;
  /**
   * The answer's `Retry-After`, in seconds: when to try again after a 429 (`key_creation_limit`,
   * `rate_limited`, ...), a 503 or a 409 `idempotency_in_progress`; null when it has none.
   */
  readonly retryAfter: number | null;

  constructor(status: number, body: ErrorResult, quota?: Quota, retryAfter: number | null = null) {
    super(`${status ? `${status} ` : ''}${body.error}: ${body.message}`);
    this.name = 'Mod97Error';
    this.status = status;
    this.code = body.error;
    this.body = body;
    this.retryAfter = retryAfter;
    if (quota) Object.defineProperty(this, 'quota', { value: quota, enumerable: false });
  }
}

/**
 * When a call may be sent again by itself:
 * - `read`: free and without effect (usage): after any connection failure, time-out or 503;
 * - `metered`: data calls cost quota, and one cut off in flight, or answered 503 while the
 *   service's store was failing, may have been counted: only when it provably never reached
 *   the service (connection refused, name not resolved). A metered POST carries an
 *   Idempotency-Key, so it is also sent again once, with the same key, after any connection
 *   failure, time-out or 503: the service answers a repeat with the first answer, uncharged;
 * - `write`: keys routes that change state: the same, never on an answer.
 */
type Safety = 'read' | 'metered' | 'write';

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  safety: Safety;
  /** Statuses that are answers, not refusals (default 200). */
  ok?: number[];
  /** Sent without the client's key: the route uses none (generate), and a stale key would have it refused. */
  withoutKey?: true;
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * Spaces, tabs and line breaks around a key (the newline a .env file or a mounted secret leaves)
 * are dropped, as fetch drops them around any header value; the Python client drops the same.
 */
const AROUND_KEY = /^[ \t\r\n]+|[ \t\r\n]+$/g;
/** How many times a retry told 409 idempotency_in_progress waits for the first request's answer. */
const IN_PROGRESS_WAITS = 10;

export class Mod97 {
  readonly baseUrl: string;
  readonly #apiKey?: string;
  /** Why the key cannot be sent, judged once; undefined when it can (or there is none). */
  readonly #keyRefusal: ErrorResult | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #timeoutMs: number;
  readonly #retries: number;

  constructor(options: Mod97Options = {}) {
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
    this.#apiKey = options.apiKey?.replace(AROUND_KEY, '') || undefined;
    this.#keyRefusal = keyRefusal(this.#apiKey);
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#retries = options.retries ?? 2;
  }

  validate(iban: string, options: { bic?: string } = {}): Promise<Answer<ValidateResult>> {
    return this.#call({ method: 'POST', path: '/v1/iban/validate', body: { iban, ...options }, safety: 'metered' });
  }

  /** 1 to 1000 IBANs; results in the same order. Costs one unit per IBAN, admitted whole or not at all. */
  batch(ibans: BatchInput[]): Promise<Answer<BatchResult>> {
    return this.#call({ method: 'POST', path: '/v1/iban/batch', body: { ibans }, safety: 'metered' });
  }

  /** The IBAN of a domestic account number (`country`, `bank_code`, `branch_code`, `account`), validated. */
  fromAccount(parts: FromAccountInput): Promise<Answer<FromAccountResult>> {
    return this.#call({ method: 'POST', path: '/v1/iban/from-account', body: parts, safety: 'metered' });
  }

  /** Every IBAN in `text` (1 to 20,000 characters), in text order, with its offsets and validate answer. Costs 1. */
  extract(text: string): Promise<Answer<ExtractResult>> {
    return this.#call({ method: 'POST', path: '/v1/iban/extract', body: { text }, safety: 'metered' });
  }

  /**
   * The QR code of a payment: EPC QR ("GiroCode"), or the Swiss QR-bill's for a CH/LI IBAN; as
   * SVG (default), PNG (base64) or `format: 'payload'`. A payment that cannot be coded throws a
   * Mod97Error `payment_data_invalid` whose body lists `errors`. `options` (`standard`,
   * `format`) may also be given in `payment` itself. Costs 1.
   */
  paymentQr(
    payment: PaymentQrInput,
    options: Pick<PaymentQrInput, 'standard' | 'format'> = {},
  ): Promise<Answer<PaymentQrResult>> {
    return this.#call({ method: 'POST', path: '/v1/payment/qr', body: { ...payment, ...options }, safety: 'metered' });
  }

  /** Reads a payment QR code from its text or an image: the standard, the fields and their payment check. Costs 1. */
  readPaymentQr(input: PaymentQrReadInput): Promise<Answer<PaymentQrReadResult>> {
    return this.#call({ method: 'POST', path: '/v1/payment/qr/read', body: input, safety: 'metered' });
  }

  /** A payment reference judged: its type (from `type`, its form, or `country`), verdict, print form. Costs 1. */
  validateReference(reference: string, options: ReferenceValidateOptions = {}): Promise<Answer<ReferenceResult>> {
    return this.#call({
      method: 'POST',
      path: '/v1/reference/validate',
      body: { reference, ...options },
      safety: 'metered',
    });
  }

  /** The reference of `type` made from the creditor's number `from`, answered as validateReference answers. Costs 1. */
  createReference(input: ReferenceCreateInput): Promise<Answer<ReferenceResult>> {
    return this.#call({ method: 'POST', path: '/v1/reference/create', body: input, safety: 'metered' });
  }

  /** A payment judged whole (IBAN, BIC, name, amount, currency, reference, remittance), each error with its field. Costs 1. */
  checkPayment(payment: PaymentInput): Promise<Answer<PaymentCheckResult>> {
    return this.#call({ method: 'POST', path: '/v1/payment/check', body: payment, safety: 'metered' });
  }

  bic(code: string): Promise<Answer<BicResult>> {
    return this.#call({ method: 'GET', path: `/v1/bic/${encodeURIComponent(code)}`, safety: 'metered' });
  }

  compliance(subject: { iban: string } | { bic: string }): Promise<Answer<ComplianceResult>> {
    return this.#call({ method: 'POST', path: '/v1/iban/compliance', body: subject, safety: 'metered' });
  }

  clearing(iid: string): Promise<Answer<ClearingResult>> {
    return this.#call({ method: 'GET', path: `/v1/ch/clearing/${encodeURIComponent(iid)}`, safety: 'metered' });
  }

  /** With a key: its balance; without one: the caller network's no-key trial. */
  usage(): Promise<Answer<UsageResult>> {
    return this.#call({ method: 'GET', path: '/v1/keys/usage', safety: 'read' });
  }

  /** The key's calls per day over its current period, for charts (free; needs a key). */
  dailyUsage(): Promise<Answer<DailyUsageResult>> {
    return this.#call({ method: 'GET', path: '/v1/keys/usage/daily', safety: 'read' });
  }

  /** A new key (201); with `email` an email-tier key, which may first need a mailed `code`. */
  generateKey(body: { email?: string; code?: string; source?: string } = {}): Promise<Answer<KeyCreatedResult>> {
    return this.#call({
      method: 'POST',
      path: '/v1/keys/generate',
      body,
      safety: 'write',
      ok: [201],
      withoutKey: true,
    });
  }

  /** A new secret for the key; the one this client holds stops working, so use the new one from here on. */
  rotate(): Promise<Answer<RotatedResult>> {
    return this.#call({ method: 'POST', path: '/v1/keys/rotate', safety: 'write' });
  }

  /** Without `code`: a code is mailed (202, `code_sent`); with it: the key is claimed (200). */
  claim(body: { email?: string; code?: string } = {}): Promise<Answer<ClaimCodeSent | ClaimedResult>> {
    return this.#call({ method: 'POST', path: '/v1/keys/claim', body, safety: 'write', ok: [200, 202] });
  }

  async #call<T>(call: Call): Promise<Answer<T>> {
    const unsendable = call.withoutKey ? undefined : this.#keyRefusal;
    if (unsendable) throw new Mod97Error(0, unsendable);
    // One key for every attempt of this call: the service charges it once, whatever reaches it.
    const idempotencyKey = call.method === 'POST' && call.safety === 'metered' ? randomKey() : undefined;
    let resent = false;
    let waits = 0;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= this.#retries;
      let exchange: { res: Response; text: string };
      try {
        exchange = await this.#send(call, idempotencyKey);
      } catch (err) {
        const failure = asFailure(err, this.baseUrl);
        const retry =
          call.safety === 'read' || NEVER_SENT.has(failure.cause ?? '') || (idempotencyKey !== undefined && !resent);
        if (!last && retry) {
          resent ||= idempotencyKey !== undefined && !NEVER_SENT.has(failure.cause ?? '');
          await pause(attempt);
          continue;
        }
        throw new Mod97Error(0, { ...failure.body, message: withoutKey(failure.body.message, this.#apiKey) });
      }
      const { status } = exchange.res;
      if (status === 503 && !last && (call.safety === 'read' || (idempotencyKey !== undefined && !resent))) {
        resent = idempotencyKey !== undefined;
        await pause(attempt, retryAfterOf(exchange.res.headers));
        continue;
      }
      // The repeat met the first request still being answered: wait for that answer rather than fail.
      if (status === 409 && resent && waits < IN_PROGRESS_WAITS && exchange.text.includes('idempotency_in_progress')) {
        waits++;
        attempt--;
        await pause(0, retryAfterOf(exchange.res.headers));
        continue;
      }
      return answer<T>(exchange.res, exchange.text, call.ok ?? [200]);
    }
  }

  /** One attempt, the answer's body included, within the time-out (whose timer ends with it). */
  async #send(call: Call, idempotencyKey?: string): Promise<{ res: Response; text: string }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (this.#apiKey && !call.withoutKey) headers.authorization = `Bearer ${this.#apiKey}`;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new DOMException('The service did not answer in time.', 'TimeoutError')),
      this.#timeoutMs,
    );
    try {
      const res = await this.#fetch(this.baseUrl + call.path, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: abort.signal,
      });
      return { res, text: await res.text() };
    } finally {
      clearTimeout(timer);
    }
  }
}

function answer<T>(res: Response, text: string, ok: number[]): Answer<T> {
  const quota = quotaOf(res.headers);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!ok.includes(res.status) || typeof body !== 'object' || body === null) {
    const error = isErrorResult(body)
      ? body
      : {
          error: 'invalid_response',
          message: `The service answered ${res.status} with ${text ? 'a body that is not a JSON object' : 'no body'}.`,
        };
    throw new Mod97Error(res.status, error, quota, retryAfterOf(res.headers));
  }
  if (quota) Object.defineProperty(body, 'quota', { value: quota, enumerable: false });
  return body as Answer<T>;
}

/** A service error body: an object whose `error` is a code (its `message` beside it). */
function isErrorResult(body: unknown): body is ErrorResult {
  return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string';
}

/**
 * The refusal of a key that is not visible ASCII, or undefined. A header cannot carry a line
 * break or a control character: fetch would fail with an error quoting the whole `Bearer` value
 * (the secret in a trace) that reads as a network fault. A space or a non-ASCII letter could be
 * sent, but no key holds one. So nothing is sent, and the key is not shown. The words are the
 * `mod97` command's for its MOD97_API_KEY (src/cli/io.ts), and the Python client's.
 */
function keyRefusal(key: string | undefined): ErrorResult | undefined {
  if (key === undefined || /^[\x21-\x7e]*$/.test(key)) return undefined;
  const what = /[\r\n]/.test(key)
    ? 'a line break'
    : /^bearer[ \t]/i.test(key)
      ? 'the word Bearer before the key (the client adds it)'
      : /[ \t]/.test(key)
        ? 'a space or tab'
        : 'a character an HTTP header cannot carry';
  return {
    error: 'invalid_api_key',
    message: `The API key is malformed: it holds ${what}, so it cannot be sent (its value is not shown). Give the key alone, as it was shown: ifk_ and 64 hexadecimal characters. Nothing was sent.`,
  };
}

/** A message from outside the client (fetch's, a wrapper's) with the key, should it quote it, left out. */
function withoutKey(message: string, key: string | undefined): string {
  return key ? message.replaceAll(key, '[API key]') : message;
}

/** `Retry-After` in seconds, the form the service sends; null when absent or in another form. */
function retryAfterOf(headers: Headers): number | null {
  const value = headers.get('retry-after');
  return value !== null && /^[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : null;
}

function quotaOf(headers: Headers): Quota | undefined {
  const used = headers.get('x-quota-used');
  const limit = headers.get('x-quota-limit');
  const remaining = headers.get('x-quota-remaining');
  const month = headers.get('x-quota-month');
  if (used === null || limit === null || remaining === null || month === null) return undefined;
  const quota: Quota = { used: Number(used), limit: Number(limit), remaining: Number(remaining), month };
  if (headers.get('x-quota-exhausted') === 'true') quota.exhausted = true;
  return quota;
}

function asFailure(err: unknown, baseUrl: string): { cause?: string; body: ErrorResult } {
  // fetch fails with an Error (a DOMException on a timeout or abort) whose cause names the system's code.
  if (!(err instanceof Error))
    return { body: { error: 'connection_failed', message: `Could not reach the service: ${String(err)}` } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError')
    return { body: { error: 'timeout', message: 'The service did not answer in time.' } };
  const code = typeof err.cause === 'object' && err.cause !== null && 'code' in err.cause ? err.cause.code : undefined;
  const cause = typeof code === 'string' ? code : undefined;
  if (cause === undefined && err instanceof TypeError && pageOrigin() !== undefined)
    return { body: blocked(err, baseUrl) };
  // Node's fetch refuses the ports browsers block (6000, 6665, ...) before connecting, saying only "fetch failed".
  if (err.cause instanceof Error && err.cause.message === 'bad port')
    return {
      body: {
        error: 'connection_failed',
        message: `Could not reach the service: fetch never connects to port ${new URL(baseUrl).port}, one of the ports browsers block (the Fetch standard's "bad ports"). Serve the service on another port.`,
      },
    };
  return {
    cause,
    body: {
      error: 'connection_failed',
      message: `Could not reach the service${cause ? ` (${cause})` : ''}: ${err.message}`,
    },
  };
}

/** The origin of the page or worker this runs in; undefined in Node.js, which has no location. */
function pageOrigin(): string | undefined {
  const location: unknown = Reflect.get(globalThis, 'location');
  const origin: unknown =
    typeof location === 'object' && location !== null ? Reflect.get(location, 'origin') : undefined;
  return typeof origin === 'string' ? origin : undefined;
}

/**
 * A browser's fetch says only "TypeError: Failed to fetch" both when the service cannot be
 * reached and when the browser withheld an answer that CORS does not allow this page to read:
 * the message names both, and what the service allows.
 */
function blocked(err: Error, baseUrl: string): ErrorResult {
  return {
    error: 'connection_failed',
    message:
      `Could not reach the service at ${baseUrl} (${err.message}), or the browser blocked the call by CORS: ` +
      `a page of ${pageOrigin()} may call the data routes and GET /v1/keys/usage of another origin, ` +
      "but the key routes (generate, rotate, claim) only from the service's own pages or from a server.",
  };
}

/**
 * A fresh Idempotency-Key. `crypto.randomUUID` exists only in secure contexts (https, localhost),
 * `crypto.getRandomValues` in every page and worker; Node.js 18 has no global `crypto` at all, and
 * there the key need only be unique among one API key's retries, not secret (a caller must hold
 * the API key to use it), so Math.random serves.
 */
function randomKey(): string {
  const crypto: Crypto | undefined = globalThis.crypto;
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  if (crypto) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // the RFC 9562 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** 250 ms, then 1 s (or what Retry-After asks, up to 10 s). */
function pause(attempt: number, retryAfter: number | null = null): Promise<void> {
  const ms = retryAfter ? Math.min(retryAfter * 1000, 10_000) : 250 * 4 ** attempt;
  return new Promise((resolve) => setTimeout(resolve, ms));
}
