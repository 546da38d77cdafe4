/** One request and its answer, shown by /openapi.json, /docs and docs/api.md. */
export interface RouteExample {
  method: string;
  /** The path as sent, parameters and query filled in. */
  path: string;
  body?: unknown;
  /** Whether the example sends a key (`Authorization: Bearer`). */
  key: boolean;
  /**
   * Headers sent besides the key and Content-Type (a payment's proof, a webhook's signature); a
   * value `$NAME` is the caller's own, read from the environment variable NAME.
   */
  headers?: Record<string, string>;
  status: number;
  answer: unknown;
  /** The same call with mod97-client, when the client has a method for it: `await mod97.x(...)`. */
  js?: string;
  /** The same call with the Python client (`from mod97 import Mod97`): `mod97.x(...)`. */
  py?: string;
}
