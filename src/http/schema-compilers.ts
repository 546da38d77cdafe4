/**
 * Fastify compiles every route's schemas (Ajv validators, fast-json-stringify serialisers) each
 * time an app is built. The schemas are module constants, so every app this process builds
 * shares one compiler pool and each schema is compiled once per process: a process that builds
 * many apps (the test suite starts hundreds of services) does not pay for it again each time.
 * The server itself compiles nothing at start: it runs the build's compiled schemas
 * (compiled-schemas.ts), and these compilers only for a schema the build did not see.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildSerializer = NonNullable<Factories['buildSerializer']>;
type Serializer = ReturnType<ReturnType<BuildSerializer>>;

const serializerFactory = SerializerSelector();
/** Compiled serialisers by the options and external schemas they were built with, then by schema. */
const serializers = new Map<string, WeakMap<object, Serializer>>();

const buildSerializer: BuildSerializer = (externalSchemas, options) => {
  const compile = serializerFactory(externalSchemas, options);
  const key = JSON.stringify([externalSchemas, options]);
  const compiled = serializers.get(key) ?? new WeakMap<object, Serializer>();
  serializers.set(key, compiled);
  return (route) => {
    const { schema } = route;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let serialize = compiled.get(schema);
    if (!serialize) {
      serialize = compile(route);
      compiled.set(schema, serialize);
    }
    return serialize;
  };
};

export const sharedCompilers = { buildValidator: AjvCompiler(), buildSerializer };
