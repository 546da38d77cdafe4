/**
 * A page of another origin, for what browsers do across origins (CORS): a tiny HTTP server on
 * another 127.0.0.1 port serving fixed files, and a headless chromium that opens it. Unlike
 * test/web/browser.ts, the browser may reach the service, which is the point.
 */
import { after } from 'node:test';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM } from '../web/browser.ts';
import { loopbackServer } from './loopback.ts';

export interface OtherOrigin {
  /** `http://127.0.0.1:PORT`, not the service's origin. */
  origin: string;
  /** The page at `/` of that origin, open in chromium; console errors are collected. */
  page: Page;
  problems: string[];
}

/** Serves `files` (path → [content type, body]) and opens `/` in chromium; both stop after the file's tests. */
export async function openOtherOrigin(files: Record<string, [string, string]>): Promise<OtherOrigin> {
  const pages: Record<string, [string, string]> = {
    '/': ['text/html; charset=utf-8', '<!doctype html><html lang="en"><title>another site</title><p>another site</p>'],
    ...files,
  };
  const origin = await loopbackServer((req, res) => {
    const file = pages[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' }).end(file?.[1] ?? 'not found');
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  after(() => browser.close());
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${origin}/`);
  return { origin, page, problems };
}
