/** Raw bytes over a real socket, for requests no HTTP client would send. */
import { connect } from 'node:net';

export interface RawReply {
  /** 0 when nothing came back. */
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
  /** A socket error seen before the close, e.g. ECONNRESET. */
  error: string | null;
  /** Whether the server closed the socket before `waitMs`. */
  closedByServer: boolean;
  elapsedMs: number;
}

export interface RawOptions {
  /** Give up (and destroy the socket) after this long. */
  waitMs?: number;
  /** Source address, to act as another network. */
  from?: string;
  /** Half-close after writing, so that the server answers and closes at once. */
  end?: boolean;
  /** Called once connected, to keep writing (a trickle). Returns a stop function. */
  keepWriting?: (write: (chunk: string | Buffer) => void) => () => void;
}

export function rawRequest(baseUrl: string, bytes: string | Buffer, opts: RawOptions = {}): Promise<RawReply> {
  const { port, hostname } = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect({ port: Number(port), host: hostname, localAddress: opts.from });
    const chunks: Buffer[] = [];
    let error: string | null = null;
    let closedByServer = true;
    let stop = () => {};
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    const giveUp = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, opts.waitMs ?? 3000);
    socket.on('close', () => {
      clearTimeout(giveUp);
      stop();
      resolve({
        ...parse(Buffer.concat(chunks).toString('utf8')),
        error,
        closedByServer,
        elapsedMs: Date.now() - started,
      });
    });
    if (opts.end) socket.end(bytes);
    else socket.write(bytes);
    if (opts.keepWriting) stop = opts.keepWriting((chunk) => socket.writable && socket.write(chunk));
  });
}

/** Status, headers and JSON body of the first answer in `text`. */
export function parse(text: string): Pick<RawReply, 'status' | 'headers' | 'body' | 'text'> {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = end < 0 ? '' : text.slice(end + 4);
  const length = Number(headers['content-length']);
  const bodyText = Number.isNaN(length) ? rest : Buffer.from(rest).subarray(0, length).toString('utf8');
  let body: unknown = bodyText;
  try {
    body = JSON.parse(bodyText);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body, text };
}

/** Writes `chunk` every `everyMs` until stopped. */
export const trickle =
  (chunk: string, everyMs: number): RawOptions['keepWriting'] =>
  (write) => {
    const timer = setInterval(() => write(chunk), everyMs);
    return () => clearInterval(timer);
  };
