/**
 * Request bodies. Parse failures are not thrown here: the body is judged after credentials and
 * payment (docs/api.md, "Order of checks"), so the parsers only mark the body and
 * the pipeline (pipeline.ts, step 5) decides. The one exception is a body over the limit,
 * refused before it is read (413).
 */
import { isUtf8 } from 'node:buffer';
import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isRecord } from '../is-record.ts';
import { KEY_ANYWHERE } from '../keys/secret.ts';
import { LIMITS } from '../plans.ts';
import { payloadTooLarge } from './errors.ts';

/** Stands in for a body that is present but not JSON. */
export const INVALID_JSON = Symbol('invalid_json');
/** Stands in for a body sent with another content type; such a body is never read. */
export const UNSUPPORTED_MEDIA = Symbol('unsupported_media_type');
/** Stands in for a body whose bytes are not UTF-8, the one encoding of JSON (RFC 8259): refused, not guessed at. */
export const NOT_UTF8 = Symbol('not_utf8');
/** Stands in for a JSON body nested deeper than MAX_JSON_DEPTH: refused without being parsed. */
export const TOO_DEEP = Symbol('json_too_deep');
/** The deepest nesting of arrays and objects a JSON body may have; no route's body needs more than a few. */
export const MAX_JSON_DEPTH = 64;
/** Set on requests whose body holds a key-shaped value. */
export const KEY_IN_BODY = Symbol('key_in_body');
/**
 * The one place a key may travel in a body: `params._meta["mod97/api-key"]` of an MCP message, on
 * a route whose config sets `keyInMeta` (POST /mcp), so that an agent can use a key it was just
 * given on the same connection. A key anywhere else in that body (in the arguments) is refused.
 */
export const KEY_META = 'mod97/api-key';
/** On requests sent with an Idempotency-Key: the SHA-256 (hex) of the body's bytes (idempotency.ts). */
export const BODY_DIGEST = Symbol('body_digest');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a key in its messages' `params._meta` (see KEY_META). */
    keyInMeta?: true;
  }
  interface FastifyRequest {
    [KEY_IN_BODY]?: boolean;
    [BODY_DIGEST]?: string;
  }
}

/** The parsed JSON body, or undefined when it is absent or only a marker. */
export const parsedBody = (body: unknown): unknown => (typeof body === 'symbol' ? undefined : body);

// Fastify's own test of a Content-Type header (RFC 9110 type "/" subtype, then parameters).
const MEDIA_TYPE = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(?:;|$)/;

export function registerJsonBody(app: FastifyInstance): void {
  const limit = app.initialConfig.bodyLimit ?? LIMITS.bodyBytes;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, raw, done) => {
    const bytes = typeof raw === 'string' ? Buffer.from(raw) : raw; // parseAs 'buffer': always a Buffer
    if (req.headers['idempotency-key'] !== undefined) req[BODY_DIGEST] = hash('sha256', bytes);
    // Decoded as it is, a name in Windows-1252 (an older ERP's export) would reach a payment as U+FFFD.
    if (!isUtf8(bytes)) return done(null, NOT_UTF8);
    // Only zero bytes are no body (docs/api.md, "Conventions": Bodies); whitespace is a body, and not JSON.
    if (bytes.length === 0) return done(null, undefined);
    const text = bytes.toString('utf8');
    // The raw text is the cheap test; only a JSON escape (a backslash) can hide a key from it.
    if (KEY_ANYWHERE.test(text)) req[KEY_IN_BODY] = true;
    // JSON.parse takes ~100 ms on a body nested 500,000 deep: a byte scan refuses it first.
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(null, TOO_DEEP);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return done(null, INVALID_JSON);
    }
    if (!req[KEY_IN_BODY] && text.includes('\\') && holdsKey(body)) req[KEY_IN_BODY] = true;
    if (req[KEY_IN_BODY] && req.routeOptions.config?.keyInMeta && !holdsKey(withoutKeyMeta(body)))
      req[KEY_IN_BODY] = false;
    done(null, body);
  });
  // Any other type (or none): marked unread, so the 415 comes after credentials and quota. Zero
  // bytes are no body, whatever their type (`curl -d ''` sends them as a form).
  app.addContentTypeParser('*', (req, _payload, done) => {
    const length = req.headers['content-length'];
    if (length === '0') return done(null, undefined);
    if (Number(length) > limit) return done(payloadTooLarge(), undefined);
    done(null, UNSUPPORTED_MEDIA);
  });
  // Fastify answers 415 by itself, before any hook, for a Content-Type that is not a media
  // type at all; relabel it so that it takes the path of any other unsupported type.
  app.addHook('onRequest', (req: FastifyRequest, _reply, next) => {
    const type = req.headers['content-type'];
    if (type !== undefined && !MEDIA_TYPE.test(type)) req.headers['content-type'] = 'application/x-unrecognised';
    next();
  });
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text opens more than `max` arrays and objects inside one another, counted outside
 * strings (a backslash escapes the character after it). One pass, no allocation; text that is not
 * JSON at all is left for JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** The JSON-RPC message or batch without the key each message may carry in `params._meta`. */
function withoutKeyMeta(body: unknown): unknown {
  const strip = (message: unknown): unknown => {
    if (!isRecord(message) || !isRecord(message.params) || !isRecord(message.params._meta)) return message;
    const { [KEY_META]: _key, ...meta } = message.params._meta;
    return { ...message, params: { ...message.params, _meta: meta } };
  };
  return Array.isArray(body) ? body.map(strip) : strip(body);
}

/** Whether a parsed JSON value holds a key-shaped string, as a value or a member name. */
function holdsKey(value: unknown): boolean {
  // A stack, not recursion: a body may nest as deep as its size limit allows.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (KEY_ANYWHERE.test(item)) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const [name, member] of Object.entries(item)) {
        if (KEY_ANYWHERE.test(name)) return true;
        stack.push(member);
      }
    }
  }
  return false;
}
