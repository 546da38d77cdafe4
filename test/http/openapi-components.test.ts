/**
 * The naming of schemas for the OpenAPI document (src/http/openapi-components.ts): any titled
 * schema, wherever it sits, becomes a component referred to by `$ref`; a title given to two
 * different schemas, or one that is not PascalCase, stops the document instead of lying.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hoistTitled } from '../../src/http/openapi-components.ts';

const item = { title: 'Item', type: 'object', properties: { title: { type: 'string' } } };

test('titled schemas at any depth become components; a property named title is not a title', () => {
  const components: Record<string, unknown> = {};
  const body = {
    title: 'List',
    type: 'object',
    properties: { items: { type: 'array', items: item }, first: { anyOf: [item, { type: 'null' }] } },
  };
  assert.deepEqual(hoistTitled(body, components), { $ref: '#/components/schemas/List' });
  assert.deepEqual(Object.keys(components).sort(), ['Item', 'List']);
  assert.deepEqual(components.List, {
    title: 'List',
    type: 'object',
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
      first: { anyOf: [{ $ref: '#/components/schemas/Item' }, { type: 'null' }] },
    },
  });
  assert.deepEqual(components.Item, item);
  // An untitled schema stays where it is; the input is not changed.
  assert.deepEqual(hoistTitled({ type: 'string' }, components), { type: 'string' });
  assert.equal(body.properties.items.items, item);
});

test('two different schemas under one title, or a title not in PascalCase, stop the document', () => {
  const components: Record<string, unknown> = {};
  hoistTitled(item, components);
  hoistTitled({ ...item }, components);
  assert.throws(
    () => hoistTitled({ ...item, required: ['title'] }, components),
    /two different schemas are titled "Item"/,
  );
  assert.throws(() => hoistTitled({ title: 'an item', type: 'object' }, components), /not PascalCase/);
});
