/** A small HTTP client over real sockets, able to send from another loopback address. */
import { request as httpRequest } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

export interface CallOptions {
  method?: string;
  /** A JSON value, or a raw string/Buffer sent as is. */
  json?: unknown;
  raw?: string | Buffer;
  key?: string;
  headers?: Record<string, string>;
  /** Source address, e.g. 127.0.0.7, to act as another network. */
  from?: string;
}

export function call(baseUrl: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const url = new URL(path, baseUrl);
  const headers: Record<string, string> = { ...opts.headers };
  let payload: Buffer | undefined;
  if (opts.json !== undefined) {
    payload = Buffer.from(JSON.stringify(opts.json));
    headers['content-type'] ??= 'application/json';
  } else if (opts.raw !== undefined) {
    payload = Buffer.from(opts.raw);
  }
  if (payload) headers['content-length'] = String(payload.length);
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: opts.method ?? (payload ? 'POST' : 'GET'), headers, localAddress: opts.from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            /* not JSON: keep the text */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}
