/** Server-rendered pages: Eta templates (escaped by default) and the headers every page carries. */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Eta } from 'eta';
import type { FastifyReply } from 'fastify';
import { KEY_PATTERN, KEY_SHAPE_TEXT } from '../keys/secret.ts';
import { ROOT } from '../root.ts';

const WEB = join(ROOT, 'src/web');
const eta = new Eta({ views: join(WEB, 'templates'), cache: true, autoEscape: true });

/** Section 12's headers: scripts and styles from this origin only, never framed, no referer. */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

/** What a key looks like, said once (src/keys/secret.ts) and rendered into every page for its script. */
export const KEY_SHAPE = {
  keyPattern: KEY_PATTERN.source,
  keyShape: KEY_SHAPE_TEXT,
};

/** The pages of the main navigation, in its order. */
export const NAV = [
  { href: '/pricing', label: 'Pricing' },
  { href: '/keys/new', label: 'Get a key' },
  { href: '/claim', label: 'Claim' },
  { href: '/usage', label: 'Usage' },
  { href: '/qr', label: 'QR codes' },
  { href: '/docs', label: 'API reference' },
] as const;

export function sendPage(reply: FastifyReply, template: string, data: Record<string, unknown>): FastifyReply {
  const html = eta.render(`./${template}`, { ...KEY_SHAPE, nav: NAV, ...data });
  return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
}

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The few static files, read once at start-up. */
export function loadAssets(): Map<string, { type: string; body: Buffer }> {
  const dir = join(WEB, 'assets');
  return new Map(
    readdirSync(dir)
      .filter((name) => TYPES[extname(name)])
      .map((name) => [name, { type: TYPES[extname(name)], body: readFileSync(join(dir, name)) }]),
  );
}
