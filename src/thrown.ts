/**
 * What a `catch` receives is `unknown`. These read it without a cast; in practice it is an
 * Error (fs, fetch, DNS, drivers), and then they answer what `(e as Error).message` and
 * `(e as NodeJS.ErrnoException).code` did.
 */

/** The message of a thrown Error; any other thrown value as text. */
export function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/** The `code` a Node, driver or library error carries (`ENOENT`, `ERR_PARSE_ARGS_...`, SQLSTATE), if any. */
export function codeOf(thrown: unknown): unknown {
  return typeof thrown === 'object' && thrown !== null && 'code' in thrown ? thrown.code : undefined;
}

/** The `cause` an error carries (fetch's network failure, for one), if any. */
export function causeOf(thrown: unknown): unknown {
  return typeof thrown === 'object' && thrown !== null && 'cause' in thrown ? thrown.cause : undefined;
}

/** The `message` of any thrown object (an Error or not), if it has one. */
export function messageIn(thrown: unknown): unknown {
  return typeof thrown === 'object' && thrown !== null && 'message' in thrown ? thrown.message : undefined;
}
