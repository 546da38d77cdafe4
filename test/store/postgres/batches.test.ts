import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Batches } from '../../../src/store/postgres/batches.ts';

/** Batches over a `send` that the test finishes by hand, recording what each batch held. */
function recorded(max: number) {
  const sent: number[][] = [];
  const finish: (() => void)[] = [];
  const batches = new Batches<number>(
    (batch) =>
      new Promise((resolve) => {
        sent.push(batch);
        finish.push(resolve);
      }),
    max,
  );
  return { batches, sent, finish };
}

describe('statements batched across turns', () => {
  test('what arrives while a batch is in flight goes out together as the next one', async () => {
    const { batches, sent, finish } = recorded(10);
    batches.add(1);
    await nextTurn();
    batches.add(2);
    await nextTurn();
    batches.add(3);
    await nextTurn();
    assert.deepEqual(sent, [[1]], 'the later calls wait for the batch in flight');
    finish[0]();
    await nextTurn();
    assert.deepEqual(sent, [[1], [2, 3]]);
  });

  test('a full batch goes out at once, even while another is in flight', async () => {
    const { batches, sent } = recorded(3);
    batches.add(1);
    await nextTurn();
    for (let i = 2; i <= 8; i++) batches.add(i);
    await nextTurn();
    assert.deepEqual(sent, [[1], [2, 3, 4], [5, 6, 7]], 'only the partial remainder waits');
  });
});
