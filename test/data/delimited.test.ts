import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDelimited } from '../../src/data/importers/text.ts';

test('delimited text keeps quoted separators, line breaks and doubled quotes, and drops blank lines', () => {
  const text = '\uFEFFname;bic\r\n"Bank; ""Nord""";ABCDDEFF\n\n"Two\nlines";\n;\nLast;XYZ';
  assert.deepEqual(parseDelimited(text, ';'), [
    ['name', 'bic'],
    ['Bank; "Nord"', 'ABCDDEFF'],
    ['Two\nlines', ''],
    ['Last', 'XYZ'],
  ]);
});

test('rows of different widths and a stray quote inside a field are read as they are', () => {
  assert.deepEqual(parseDelimited('a,b,c\n1,2 "inch",3,4\n5', ','), [
    ['a', 'b', 'c'],
    ['1', '2 "inch"', '3', '4'],
    ['5'],
  ]);
});
