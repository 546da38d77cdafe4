/**
 * The route schemas compiled at build time. Compiling them at start (Ajv validators,
 * fast-json-stringify serialisers) was the largest part of a start, about 200 ms of CPU
 * (docs/benchmarks.md, "Start-up"). The build (scripts/build.mjs, src/http/schema-capture.ts)
 * writes the standalone code of every schema an app compiles, under each setting of the rails,
 * into dist/compiled-schemas.js; the server takes each function from there instead of compiling.
 *
 * Each function is found by a hash of what it was compiled from (the schema, the shared schemas
 * and the compiler's options), never by route: a schema the build did not see (a setting that
 * changes one) misses, and is compiled at start as before, by schema-compilers.ts, which the
 * build also writes beside it (dist/schema-compilers.cjs) and which is loaded only on a miss.
 */
import { hash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { ROOT } from '../root.ts';

/** Fastify's compilersFactory: Ajv validators and fast-json-stringify serialisers. */
export interface Compilers {
  buildValidator: BuildCompilerFromPool;
  buildSerializer: SerializerFactory;
}
type Validator = ReturnType<ReturnType<BuildCompilerFromPool>>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/** What dist/compiled-schemas.js exports: by schemaKey, functions that return the compiled one. */
export interface CompiledSchemaModule {
  validators: Record<string, () => Validator>;
  serializers: Record<string, () => Serializer>;
}

export const COMPILED_SCHEMAS = join(ROOT, 'dist/compiled-schemas.js');
/** schema-compilers.ts as the build writes it, for a schema the compiled module lacks. */
export const COMPILERS_FOR_MISSES = join(ROOT, 'dist/schema-compilers.cjs');

/** The key of one compiled function: what the compiler was given, as JSON (functions drop out). */
export const schemaKey = (kind: 'validator' | 'serializer', schema: unknown, shared: unknown, options: unknown) =>
  hash('sha256', JSON.stringify([kind, schema, shared, options]), 'base64url');

/**
 * The schema of what Fastify passes a validator compiler: `{ schema, method, url, httpPart }`,
 * though @fastify/ajv-compiler's types call it the schema itself.
 */
export const routeSchema = (route: Parameters<ReturnType<BuildCompilerFromPool>>[0]): unknown =>
  typeof route === 'object' ? route.schema : route;

const requireCompilersForMisses = (): Compilers =>
  createRequire(COMPILERS_FOR_MISSES)(COMPILERS_FOR_MISSES).sharedCompilers;

/**
 * Compilers that take each function from the module, and compile only what it lacks. A
 * serialiser is taken on its first call, not when Fastify asks for it at start (for every route
 * and status, about 300): a start runs none of that code, and a route never called never loads its own.
 */
export function compiledCompilers(
  compiled: CompiledSchemaModule,
  compilersForMisses: () => Compilers = requireCompilersForMisses,
): Compilers {
  return {
    buildValidator: (shared, options) => (route) =>
      compiled.validators[schemaKey('validator', routeSchema(route), shared, options)]?.() ??
      compilersForMisses().buildValidator(shared, options)(route),
    buildSerializer: (shared, options) => (route) => {
      const load = compiled.serializers[schemaKey('serializer', route.schema, shared, options)];
      if (!load) return compilersForMisses().buildSerializer(shared, options)(route);
      let serialize: Serializer | undefined;
      return (doc) => (serialize ??= load())(doc);
    },
  };
}

/** The build's compiled schemas, or null where there is no build (the sources run by tsx). */
export async function loadCompiledSchemas(file = COMPILED_SCHEMAS): Promise<Compilers | null> {
  if (!existsSync(file)) return null;
  const compiled: unknown = await import(pathToFileURL(file).href);
  return isCompiledSchemaModule(compiled) ? compiledCompilers(compiled) : null;
}

function isCompiledSchemaModule(value: unknown): value is CompiledSchemaModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    'validators' in value &&
    typeof value.validators === 'object' &&
    'serializers' in value &&
    typeof value.serializers === 'object'
  );
}
