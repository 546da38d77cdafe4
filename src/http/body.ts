/**
 * JSON bodies. Parse failures are not thrown here: DECISIONS.md section 10 judges the body
 * after credentials and payment, so the parser marks the body and the metering hook decides.
 */
import type { FastifyInstance } from 'fastify';
import { KEY_ANYWHERE } from '../keys/secret.ts';

/** Stands in for a body that is present but not JSON. */
export const INVALID_JSON = Symbol('invalid_json');
/** Set on requests whose raw body holds a key-shaped value. */
export const KEY_IN_BODY = Symbol('key_in_body');

declare module 'fastify' {
  interface FastifyRequest {
    [KEY_IN_BODY]?: boolean;
  }
}

export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, raw, done) => {
    const text = raw as string;
    if (text.trim() === '') return done(null, undefined);
    if (KEY_ANYWHERE.test(text)) req[KEY_IN_BODY] = true;
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, INVALID_JSON);
    }
  });
}
