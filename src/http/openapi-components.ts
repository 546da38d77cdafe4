/**
 * Names the schemas of the OpenAPI document for code generators: every schema that carries a
 * `title` (TypeBox's `title` option, PascalCase, given to each request and answer body in
 * src/api/) is moved to `components.schemas` under that title and referred to by `$ref`,
 * wherever it sits: a body, an item of an array, a member of another schema. A generator then
 * emits `Validation`, `Batch`, `IbanResult`, ... instead of one anonymous type per operation.
 *
 * Generic on purpose: a new route gets its components by titling its schemas, nothing more. Two
 * different schemas under one title would make one of them lie, so that stops the document.
 */
import { isRecord } from '../is-record.ts';

type JsonSchema = Record<string, unknown>;

/** Keywords whose value is one schema. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
/** Keywords whose value is a list of schemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions'];

export const schemaRef = (title: string) => ({ $ref: `#/components/schemas/${title}` });

/**
 * Returns `schema` with every titled schema in it (itself included) moved to `components` and
 * replaced by a `$ref`. The schemas below a titled one are named first, so a component refers
 * to its members' components instead of holding copies of them.
 */
export function hoistTitled(schema: JsonSchema, components: Record<string, unknown>): JsonSchema {
  const node: JsonSchema = { ...schema };
  const hoist = (member: unknown) => (isRecord(member) ? hoistTitled(member, components) : member);
  for (const key of ONE) if (key in node) node[key] = hoist(node[key]);
  for (const key of LIST) {
    const list = node[key];
    if (Array.isArray(list)) node[key] = list.map(hoist);
  }
  for (const key of MAP) {
    const map = node[key];
    if (isRecord(map)) node[key] = Object.fromEntries(Object.entries(map).map(([k, s]) => [k, hoist(s)]));
  }
  const { title } = node;
  if (typeof title !== 'string' || '$ref' in node) return node;
  if (!/^[A-Z][A-Za-z0-9]*$/.test(title)) throw new Error(`OpenAPI: the schema title "${title}" is not PascalCase.`);
  const held = components[title];
  if (held !== undefined && JSON.stringify(held) !== JSON.stringify(node)) {
    throw new Error(`OpenAPI: two different schemas are titled "${title}"; give one of them another title.`);
  }
  components[title] = node;
  return schemaRef(title);
}
