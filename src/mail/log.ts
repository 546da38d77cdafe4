/** The slice of a pino logger the mail code writes to (pino, Fastify's logger, or a child). */
export interface MailLog {
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
}

/**
 * A MailLog whose destination is set later: services are built before the app that owns the
 * logger. Lines written before `to()` is called are dropped.
 */
export interface RelayLog extends MailLog {
  to(target: MailLog): void;
}

export function relayLog(): RelayLog {
  let target: MailLog | null = null;
  return {
    info: (fields, msg) => target?.info(fields, msg),
    warn: (fields, msg) => target?.warn(fields, msg),
    to(next) {
      target = next;
    },
  };
}
