/**
 * A failure the caller can act on. The domain throws these with their SPEC error code;
 * the HTTP edge maps the code to a status in one table (src/http/errors.ts).
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
