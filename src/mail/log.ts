/** The slice of a pino logger the mail code writes to (pino, Fastify's logger, or a child). */
export interface MailLog {
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
}

/** The slice of a pino logger the service's own parts write to: warn, and error for a defect. */
export interface ServiceLog extends MailLog {
  error(fields: Record<string, unknown>, msg: string): void;
}

/**
 * The same log with `component` set on every line: one key, where a pino child made from a
 * child that has one would write two (`"component":"mail",…,"component":"daily"`).
 */
export function componentLog(log: MailLog, component: string): MailLog {
  return {
    info: (fields, msg) => log.info({ ...fields, component }, msg),
    warn: (fields, msg) => log.warn({ ...fields, component }, msg),
  };
}

/**
 * A ServiceLog whose destination (the app's root logger) is set later: services are built before the app that owns the
 * logger. Lines written before `to()` is called are dropped.
 */
export interface RelayLog extends ServiceLog {
  to(target: ServiceLog): void;
}

export function relayLog(): RelayLog {
  let target: ServiceLog | null = null;
  return {
    info: (fields, msg) => target?.info(fields, msg),
    warn: (fields, msg) => target?.warn(fields, msg),
    error: (fields, msg) => target?.error(fields, msg),
    to(next) {
      target = next;
    },
  };
}
