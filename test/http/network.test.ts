import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createNetworkResolver, type NetworkResolver } from '../../src/http/network.ts';

/** Each call on a connection of its own, as a caller's first request. */
const onNewConnections =
  (resolve: NetworkResolver) =>
  (peer: string, forwardedFor: string | undefined): string =>
    resolve(peer, forwardedFor, {});

describe('the caller network', () => {
  const direct = onNewConnections(createNetworkResolver([]));
  test('an IPv4 peer is its own network', () => assert.equal(direct('203.0.113.7', undefined), '203.0.113.7'));
  test('IPv4-mapped IPv6 counts as IPv4', () => assert.equal(direct('::ffff:203.0.113.7', undefined), '203.0.113.7'));
  test('an IPv6 peer counts by its /64', () => {
    assert.equal(direct('2001:db8:1:2:aaaa::1', undefined), '2001:db8:1:2::/64');
    assert.equal(direct('2001:db8:1:2:bbbb::9', undefined), '2001:db8:1:2::/64');
    assert.notEqual(direct('2001:db8:1:3::1', undefined), '2001:db8:1:2::/64');
  });
  test('X-Forwarded-For from an untrusted peer is ignored', () =>
    assert.equal(direct('198.51.100.1', '203.0.113.9'), '198.51.100.1'));

  const behindProxy = onNewConnections(createNetworkResolver(['10.0.0.0/8', '192.0.2.1']));
  test('behind a trusted proxy the right-most untrusted hop is the caller', () => {
    assert.equal(behindProxy('192.0.2.1', '203.0.113.9, 198.51.100.4, 10.1.1.1'), '198.51.100.4');
  });
  test('a client cannot spoof by prepending hops', () => {
    assert.equal(behindProxy('10.2.2.2', '1.1.1.1, 203.0.113.50'), '203.0.113.50');
  });
  test('when every hop is trusted the peer is the caller', () =>
    assert.equal(behindProxy('10.2.2.2', '10.3.3.3'), '10.2.2.2'));
  test('a garbage hop stops the walk at the peer', () =>
    assert.equal(behindProxy('10.2.2.2', 'not-an-ip'), '10.2.2.2'));

  test("a connection's peer is judged once; each request's X-Forwarded-For is read afresh", () => {
    const resolve = createNetworkResolver(['192.0.2.1']);
    const proxied = {};
    assert.equal(resolve('192.0.2.1', '203.0.113.9', proxied), '203.0.113.9');
    assert.equal(resolve('192.0.2.1', '198.51.100.4', proxied), '198.51.100.4');
    assert.equal(resolve('192.0.2.1', undefined, proxied), '192.0.2.1');
    // Another connection from another peer is judged for itself: not trusted, its header ignored.
    const direct = {};
    assert.equal(resolve('198.51.100.1', '203.0.113.9', direct), '198.51.100.1');
    assert.equal(resolve('192.0.2.1', '203.0.113.7', proxied), '203.0.113.7');
    // The connection's peer was judged at its first request (a socket's peer cannot change).
    assert.equal(resolve('198.51.100.1', undefined, proxied), '192.0.2.1');
  });
});
