/** Schemas shared by routes. Each route's schema validates, serialises and feeds OpenAPI. */
import { Type } from 'typebox';

export const ErrorBody = Type.Object(
  { error: Type.String(), message: Type.String() },
  { additionalProperties: true, description: 'Every error: a machine code and a sentence for people.' },
);

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

export const Attribution = Type.Object({ text: Type.String(), url: Type.String(), note: Type.String() });

/** An object whose listed fields are typed and whose other fields pass through. */
export const Open = <T extends Parameters<typeof Type.Object>[0]>(props: T) => Type.Object(props, { additionalProperties: true });
