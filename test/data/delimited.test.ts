import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ImportError } from '../../src/data/importers/types.ts';
import { readColumns, readRows } from '../../src/data/importers/text.ts';

test('delimited text keeps quoted separators, line breaks and doubled quotes, and drops blank lines', () => {
  const text = '\uFEFFname;bic\r\n"Bank; ""Nord""";ABCDDEFF\n\n"Two\nlines";\n;\nLast;XYZ';
  assert.deepEqual(readRows(text, ';', 'f.csv', { header: true }), [
    ['name', 'bic'],
    ['Bank; "Nord"', 'ABCDDEFF'],
    ['Two\nlines', ''],
    ['Last', 'XYZ'],
  ]);
});

test('a stray quote inside a field is read as it is; a row wider than the header or the format is cut to it', () => {
  assert.deepEqual(readRows('a,b,c\n1,2 "inch",3,4\n5\n', ',', 'f.csv', { header: true }), [
    ['a', 'b', 'c'],
    ['1', '2 "inch"', '3'],
    ['5'],
  ]);
  assert.deepEqual(readRows('1,2,3,4\n5', ',', 'f.csv', { header: false, width: 2 }), [['1', '2'], ['5']]);
});

test('readColumns keeps only the wanted columns the header has, trimmed', () => {
  const { header, rows } = readColumns(
    ' BIC ,Name,Noise\nAAAADEFF, Bank A ,x\nBBBBDEFF\n',
    ',',
    ['BIC', 'Name', 'City'],
    'f.csv',
  );
  assert.deepEqual(header, ['BIC', 'Name', 'Noise']);
  assert.deepEqual(rows, [
    { BIC: 'AAAADEFF', Name: 'Bank A' },
    { BIC: 'BBBBDEFF', Name: '' },
  ]);
});

test('a header wider than 64 columns is refused, naming its width, before any row is read', () => {
  const wide = (n: number) => `${Array.from({ length: n }, (_, i) => `c${i}`).join(',')}\n1,2\n`;
  assert.equal(readColumns(wide(64), ',', ['c0'], 'f.csv').rows.length, 1);
  assert.throws(
    () => readColumns(wide(65), ',', ['c0'], 'wide.csv'),
    (e: unknown) =>
      e instanceof ImportError && /wide\.csv: the header has 65 columns, more than the 64/.test(e.message),
  );
  assert.throws(() => readRows(wide(3000), ',', 'wide.csv', { header: true }), /3000 columns/);
  assert.equal(readColumns(wide(100), ',', ['c0'], 'f.csv', 128).rows.length, 1, 'a kind may set its own bound');
});
