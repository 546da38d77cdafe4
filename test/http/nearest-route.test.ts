import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nearestRoutes } from '../../src/http/nearest-route.ts';

const PAGES = ['/pricing', '/keys/new', '/claim', '/usage', '/qr', '/docs', '/terms'].map((url) => ({
  method: 'GET',
  url,
}));
const named = (path: string) => nearestRoutes('GET', path, PAGES).map((p) => p.url);

test('a short path is allowed one slip, a longer one two, and nothing is named from afar', () => {
  assert.deepEqual(named('/doc'), ['/docs']);
  assert.deepEqual(named('/q'), ['/qr']);
  assert.deepEqual(named('/a'), [], 'two slips from /qr is too far for a path of one letter');
  assert.deepEqual(named('/prcing'), ['/pricing']);
  assert.deepEqual(named('/keys/nwe'), ['/keys/new']);
  assert.deepEqual(named('/Pricing/?ref=mail'), ['/pricing'], 'case, a trailing slash and the query do not count');
  assert.deepEqual(named('/admin'), []);
  assert.deepEqual(named('/'), []);
});

test("the request's own method ranks first among routes as near, and at most three are named", () => {
  const routes = [
    { method: 'GET', url: '/v1/a/x' },
    { method: 'POST', url: '/v1/b/x' },
    { method: 'POST', url: '/v1/c/x' },
    { method: 'POST', url: '/v1/d/x' },
  ];
  assert.deepEqual(
    nearestRoutes('POST', '/v1/x', routes).map((r) => r.url),
    ['/v1/b/x', '/v1/c/x', '/v1/d/x'],
  );
});
