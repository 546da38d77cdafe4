/**
 * A JSON-RPC error as the wire should carry it. The SDK answers a thrown error's `message` as it
 * is, and its own McpError starts that message with "MCP error <code>: ", which every SDK client
 * puts there again on receipt: so what is thrown here carries the bare message.
 */
import type { McpError } from '@modelcontextprotocol/sdk/types.js';

export class WireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The service's error, passed on by `mod97 mcp` as the service sent it: without the prefix its SDK client added. */
export function passedOn(err: McpError): WireError {
  const prefix = `MCP error ${err.code}: `;
  return new WireError(
    err.code,
    err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message,
    err.data,
  );
}
