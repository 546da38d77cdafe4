/**
 * A request that fails its route's schema, told in words a person can act on: which field, what
 * it should be, what was sent instead, and any property the route does not know (a field sent as
 * `IBAN` is named, since names are case-sensitive). Fastify hands over Ajv's errors, whose own
 * text ("body/iban must be string") names a JSON pointer and a schema keyword.
 */
import { nearestNames } from '../typing-slips.ts';

/** The part of an Ajv error this reads. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** What the formatter may know of the request: the parsed input and the route's schemas. */
export interface RequestView {
  body?: unknown;
  query?: unknown;
  params?: unknown;
  headers?: unknown;
  routeOptions?: { schema?: object };
}

// A value of the right kind for the fields routes require, to show a body that would be taken.
const EXAMPLES: Record<string, unknown> = {
  iban: 'DE89 3704 0044 0532 0130 00',
  ibans: ['DE89 3704 0044 0532 0130 00'],
  bic: 'COBADEFFXXX',
  country: 'DE',
  bank_code: '37040044',
  account: '532013000',
  email: 'dev@company.eu',
  code: '123456',
  product: 'pack_1k',
};

const CONTEXT_INPUT: Record<string, keyof RequestView> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};
const CONTEXT_WORDS: Record<string, string> = {
  querystring: ' (query parameter)',
  params: ' (in the path)',
  headers: ' (header)',
};

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
};

/** A JSON pointer (`/creditor/address/town`) as its member names, escapes undone. */
export const segments = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));

/** `ibans/1/iban` as `ibans[1].iban`. */
function fieldName(parts: string[]): string {
  return parts.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

function valueAt(input: unknown, parts: string[]): unknown {
  let value = input;
  for (const part of parts) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Reflect.get(value, part);
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') {
    // JSON.parse reads 1e400 as Infinity, which no schema takes as a number.
    if (!Number.isFinite(value)) return 'a number too large to read';
    return Number.isInteger(value) ? 'a number' : 'a decimal number';
  }
  return TYPE_WORDS[typeof value] ?? typeof value;
}

const typeWords = (type: unknown): string =>
  (Array.isArray(type) ? type : [type]).map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');

/** The `properties` of an object schema (JSON Schema: always an object where present). */
function propertiesOf(schema: unknown): object | undefined {
  if (typeof schema !== 'object' || schema === null || !('properties' in schema)) return undefined;
  const { properties } = schema;
  return typeof properties === 'object' && properties !== null ? properties : undefined;
}

/** The schema of the value at `parts` (member names, list indexes) within `schema`, as far as it can be followed. */
function schemaAt(schema: unknown, parts: string[]): unknown {
  let at = schema;
  for (const part of parts) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = /^\d+$/.test(part) ? Reflect.get(at, 'items') : Reflect.get(propertiesOf(at) ?? {}, part);
  }
  return at;
}

/** The `required` names of an object schema (JSON Schema: always an array of names where present). */
function requiredOf(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null || !('required' in schema)) return [];
  const { required } = schema;
  return Array.isArray(required) ? required.filter((name: unknown): name is string => typeof name === 'string') : [];
}

/** A body the route would take: its required fields with example values. */
function exampleOf(schema: unknown): string | null {
  const required = requiredOf(schema);
  if (required.length === 0 || !required.every((f) => f in EXAMPLES)) return null;
  return `{${required.map((f) => `"${f}": ${JSON.stringify(EXAMPLES[f])}`).join(', ')}}`;
}

/** Top-level properties the request sent that its schema does not list. */
function unknownProperties(input: unknown, schema: unknown): string[] {
  const props = propertiesOf(schema);
  if (!props || input === null || typeof input !== 'object' || Array.isArray(input)) return [];
  return Object.keys(input).filter((k) => !(k in props));
}

function unknownNote(unknown: string[], schema: unknown): string {
  if (unknown.length === 0) return '';
  const props = Object.keys(propertiesOf(schema) ?? {});
  const notes = unknown.slice(0, 5).map((name) => {
    const like = props.find((p) => p.toLowerCase() === name.toLowerCase());
    return like ? `\`${name}\` (did you mean \`${like}\`? names are case-sensitive)` : `\`${name}\``;
  });
  const known = props.length ? ` Its fields are ${props.map((p) => `\`${p}\``).join(', ')}.` : '';
  return ` This request does not take ${notes.join(', ')}${unknown.length > 5 ? ', ...' : ''}.${known}`;
}

/**
 * The sentence for the first schema error of a request. A request that trips the formatter
 * itself still gets its 400: the plain sentence, never a 500.
 */
export function validationMessage(errors: SchemaError[], context: string, req?: RequestView): string {
  try {
    return describe(errors, context, req);
  } catch {
    return `The request ${context} does not fit this route; see /openapi.json.`;
  }
}

function describe(errors: SchemaError[], context: string, req?: RequestView): string {
  const schemas = req?.routeOptions?.schema;
  const schema = schemas && Reflect.get(schemas, context);
  const inputKey = CONTEXT_INPUT[context];
  const input = inputKey && req ? req[inputKey] : undefined;
  const where = CONTEXT_WORDS[context] ?? '';
  let first = errors[0];
  if (!first) return `The request ${context} is not valid.`;
  // A value that may be one of several shapes fails each branch, then the anyOf itself. A branch
  // whose shape the value has (an object missing its iban) failed for a reason worth telling;
  // otherwise answer for the whole: the shapes it may take.
  const union = errors.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (union && first.instancePath.startsWith(union.instancePath)) {
    const inner = errors.find(
      (e) =>
        e !== union && e.instancePath.startsWith(union.instancePath) && e.keyword !== 'type' && e.keyword !== 'const',
    );
    first = inner ?? union;
  }
  const parts = segments(first.instancePath);
  const value = valueAt(input, parts);
  const field = fieldName(parts);
  const at = `\`${field}\`${where}`;
  const unknown = unknownNote(unknownProperties(input, schema), schema);
  const p = first.params;

  switch (first.keyword) {
    case 'required': {
      const missing = String(p.missingProperty);
      const name = fieldName([...parts, missing]);
      const example = parts.length === 0 && context === 'body' ? exampleOf(schema) : null;
      return `\`${name}\`${where} is required${example ? `: send ${example}` : ''}.${unknown}`;
    }
    case 'type':
      if (parts.length === 0 && context === 'body') {
        const example = exampleOf(schema);
        const sent = value === undefined ? '' : `, not ${kindOf(value)}`;
        return `The body must be a JSON object${example ? ` such as ${example}` : ''}${sent}.`;
      }
      return `${at} must be ${typeWords(p.type)}${value === undefined ? '' : `, not ${kindOf(value)}`}.${unknown}`;
    case 'anyOf':
    case 'oneOf': {
      const branches = errors.filter((e) => e !== union && e.instancePath === union?.instancePath);
      const allowed = branches.flatMap((e) =>
        e.keyword === 'const'
          ? [JSON.stringify(e.params.allowedValue)]
          : e.keyword === 'type'
            ? [typeWords(e.params.type)]
            : [],
      );
      const list = [...new Set(allowed)];
      const shape = !list.length
        ? 'of another shape'
        : branches.every((e) => e.keyword === 'const')
          ? `one of ${list.join(', ')}`
          : list.join(' or ');
      const sent =
        value === undefined ? '' : `, not ${typeof value === 'string' ? JSON.stringify(value) : kindOf(value)}`;
      return `${at} must be ${shape}${sent}.${unknown}`;
    }
    case 'maxLength':
    case 'minLength': {
      const length = typeof value === 'string' ? ` (it has ${[...value].length})` : '';
      const bound = first.keyword === 'maxLength' ? 'at most' : 'at least';
      return `${at} must have ${bound} ${p.limit} characters${length}.${unknown}`;
    }
    case 'maxItems':
    case 'minItems': {
      const count = Array.isArray(value) ? ` (it holds ${value.length})` : '';
      const bound = first.keyword === 'maxItems' ? 'at most' : 'at least';
      return `${at} must hold ${bound} ${p.limit} item${p.limit === 1 ? '' : 's'}${count}.${unknown}`;
    }
    case 'enum':
      return `${at} must be one of ${(Array.isArray(p.allowedValues) ? p.allowedValues : []).map((v) => JSON.stringify(v)).join(', ')}.${unknown}`;
    case 'const':
      return `${at} must be ${JSON.stringify(p.allowedValue)}.${unknown}`;
    case 'pattern':
      return `${at} does not have the expected form${typeof value === 'string' ? ` (got ${JSON.stringify(value.slice(0, 40))})` : ''}.${unknown}`;
    case 'additionalProperties': {
      // only a payment's objects are closed (api/payment-check-schemas.ts): name what they take
      const extra = String(p.additionalProperty);
      const fields = Object.keys(propertiesOf(schemaAt(schema, parts)) ?? {});
      const near = nearestNames(extra, fields);
      const meant = near.length ? ` (did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?)` : '';
      const taken = fields.length
        ? ` ${parts.length ? `\`${field}\` takes` : 'It takes'} ${fields.map((f) => `\`${f}\``).join(', ')}.`
        : '';
      return `\`${fieldName([...parts, extra])}\`${where} is not a field of this request${meant}.${taken}`;
    }
    default:
      return `${field ? at : `The request ${context}`} ${first.message ?? 'is not valid'}.${unknown}`;
  }
}
