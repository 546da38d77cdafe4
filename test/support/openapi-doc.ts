/**
 * The served OpenAPI document with every `$ref` to a named schema replaced by that schema, for
 * tests that read a body's fields (the document itself names every body: openapi-components.ts).
 */
type Json = any;

export function dereferenced(doc: Json): Json {
  const schemas: Record<string, Json> = doc?.components?.schemas ?? {};
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/components/schemas/'))
      return walk(schemas[node.$ref.slice('#/components/schemas/'.length)]);
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  return { ...doc, paths: walk(doc.paths) };
}
