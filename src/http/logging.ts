/**
 * pino options: credentials are redacted by path, and any key-shaped value that reaches a
 * log line by another way (a URL, an error message) is masked.
 */
import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

const KEY_VALUE = /ifk_[0-9a-fA-F]{64}/g;
export const maskKeys = (text: string): string => text.replace(KEY_VALUE, 'ifk_[redacted]');

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): LoggerOptions & { stream?: NodeJS.WritableStream } {
  return {
    level,
    stream,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]', '*.api_key', 'api_key', '*.code', 'code'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: maskKeys(req.url), network: req.caller?.network }),
      err: (err: Error) => ({ type: err.name, message: maskKeys(err.message), stack: err.stack ? maskKeys(err.stack) : undefined }),
    },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? maskKeys(a) : a)) as Parameters<typeof method>);
      },
    },
  };
}
