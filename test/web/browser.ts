/**
 * One headless Debian chromium (driven by playwright-core) for a test file, with what every
 * page must hold checked on each visit: no request leaves the origin, no console error, no key
 * in any URL, axe-core finds nothing serious, nothing scrolls sideways at 360 px.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (apt-get install -y chromium); CI installs it and runs these tests`;
// In CI (.ci/run installs chromium) the page tests must run: a missing browser fails, never skips.
if (chromiumMissing && process.env.CI) throw new Error(chromiumMissing);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots');
const KEY = /ifk_[0-9a-f]{64}/;
/**
 * A page as a person scrolls through it, for people to look at: JPEG, since encoding PNG took
 * half of the page tests' CPU, and at most its first 8,000 px (the reference runs far longer).
 */
async function screenshot(page: Page, path: string): Promise<void> {
  const { width, height } = await page.evaluate(() => ({
    width: document.documentElement.clientWidth,
    height: document.documentElement.scrollHeight,
  }));
  const clip = { x: 0, y: 0, width, height: Math.min(height, 8000) };
  await page.screenshot({ path, fullPage: true, clip, type: 'jpeg', quality: 85 });
}

export interface Browser {
  page: Page;
  context: BrowserContext;
  /** Every URL the browser requested, and every console error or page error. */
  requests: string[];
  problems: string[];
  close(): Promise<void>;
}

/** A text field by its accessible name, exactly. */
export const textbox = (within: Page | Locator, label: string): Locator =>
  within.getByRole('textbox', { name: label, exact: true });

/** A button by its accessible name: exactly when a string, else by the pattern. */
export const button = (within: Page | Locator, label: string | RegExp): Locator =>
  within.getByRole('button', typeof label === 'string' ? { name: label, exact: true } : { name: label });

export async function openBrowser(origin: string): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'mod97-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const requests: string[] = [];
  const problems: string[] = [];
  context.on('request', (r) => {
    requests.push(r.url());
    if (KEY.test(r.postData() ?? '')) problems.push(`a key in the body of ${r.method()} ${r.url()}`);
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // Chromium logs every 4xx answer to fetch() as a network error. A refusal of the API that
    // the page shows as a sentence (a wrong code, say) is the journey working, not a fault.
    const refusal = /^Failed to load resource: .* status of 4\d\d/.test(m.text());
    if (refusal && m.location().url.startsWith(`${origin}/v1/`)) return;
    problems.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // Anything addressed elsewhere is refused here, and shows up in `requests` for the assertions.
  await context.route(
    (url) => !url.href.startsWith(origin) && !url.href.startsWith('data:'),
    // A navigation away (the card checkout) is answered 204, so the page stays where it is.
    (route) => (route.request().isNavigationRequest() ? route.fulfill({ status: 204 }) : route.abort()),
  );
  return {
    page,
    context,
    requests,
    problems,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What every page must hold, checked on the page as it is now. */
export async function checkPage(b: Browser, origin: string, name: string): Promise<void> {
  const { page } = b;
  // Evaluated over the DevTools protocol: the page's CSP rightly refuses an injected script tag.
  await page.evaluate(axeSource);
  const result = (await page.evaluate(async () => {
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  })) as { id: string; impact: string; targets: string[] }[];
  // Without the script a form could send nothing: no field has a name, no form an action.
  assert.equal(await page.locator('input[name], textarea[name], form[action]').count(), 0, `${name}: a named field`);
  const grave = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(grave, [], `${name}: axe-core violations`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await screenshot(page, join(SCREENSHOTS, `${name}-1280.jpg`));
  await page.setViewportSize({ width: 360, height: 780 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.equal(overflow, 0, `${name}: scrolls sideways at 360 px`);
  await screenshot(page, join(SCREENSHOTS, `${name}-360.jpg`));
  await page.setViewportSize({ width: 1280, height: 900 });
  assertClean(b, origin);
}

/**
 * No key kept by the browser beyond the tab: no cookie, nothing in localStorage, and in
 * sessionStorage only the one entry that carries the key between the service's pages.
 */
export async function assertNothingStored(b: Browser): Promise<void> {
  assert.deepEqual(await b.context.cookies(), []);
  const { local, session } = await b.page.evaluate(() => ({
    local: JSON.stringify({ ...localStorage }),
    session: { ...sessionStorage } as Record<string, string>,
  }));
  assert.equal(KEY.test(local), false, 'a key in localStorage');
  assert.deepEqual(
    Object.keys(session).filter((name) => name !== 'mod97.api_key'),
    [],
    'sessionStorage holds only the key carried between pages',
  );
}

export function assertClean(b: Browser, origin: string): void {
  assert.deepEqual(b.problems, [], 'console errors');
  assert.deepEqual(
    b.requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:')),
    [],
    'requests to another origin',
  );
  assert.deepEqual(
    b.requests.filter((u) => KEY.test(u) || KEY.test(decodeURIComponent(u))),
    [],
    'a key in a URL',
  );
}
