import { claimOf, entryKey, type IdempotencyRow } from '../idempotency.ts';
import type {
  IdempotencyClaim,
  IdempotencyReservation,
  IdempotencyStore,
  IdempotentAnswer,
  AnswerNotKept,
} from '../types.ts';
import { Batches, type Waiting } from './batches.ts';
import { compareText } from './lock-order.ts';
import type { Pg } from './pg.ts';
import type { Sql } from './sql.ts';

/**
 * Takes each key when no entry holds it, or when the one that does has expired or was left by a
 * request that never finished (a process that died mid-answer). Never a read followed by a write.
 * The entry is written before the charge, so once a call is charged its entry is durable: the
 * charge's commit waits for the disk, and PostgreSQL flushes its log in order.
 * `resumed` marks a takeover of the same request's entry left unanswered (the SET reads the
 * entry as it was, locked): that request may have been charged, so this one is not. A
 * reservation's staleBefore is its `now` less the stale window, the same for a whole statement.
 */
const RESERVE_WHEN_FREE = `ON CONFLICT (scope, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint,
  token = excluded.token, status = NULL, content_type = NULL, body = NULL, created_at = excluded.created_at,
  expires_at = excluded.expires_at,
  resumed = CASE WHEN idempotency_keys.status IS NULL AND idempotency_keys.expires_at > excluded.created_at
    AND idempotency_keys.fingerprint = excluded.fingerprint THEN 1 ELSE 0 END
  WHERE idempotency_keys.expires_at <= excluded.created_at
    OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at <= excluded.created_at - `;

/** A refused reservation reads the entry back; if it vanished meanwhile (released), it asks again. */
const RESERVE_ATTEMPTS = 3;
/** Reservations, or answers, sent in one statement at most. */
const MAX_BATCH = 64;
/**
 * Statements of each kind in flight at once (a deadlock between two, which PostgreSQL breaks, is
 * sent again: retry.ts).
 */
const IN_FLIGHT = 2;

interface Reserving extends Waiting<IdempotencyClaim> {
  r: IdempotencyReservation;
  /** entryKey of its scope and key. */
  at: string;
  attempt: number;
}

interface Completing extends Waiting<boolean> {
  scope: string;
  key: string;
  token: string;
  answer: IdempotentAnswer | AnswerNotKept;
}

/** Rows in one order in every statement and process, so that two batches seldom lock each other's rows in turn. */
const inLockOrder = <T extends { scope: string; key: string }>(xs: T[]) =>
  xs.sort((a, b) => compareText(a.scope, b.scope) || compareText(a.key, b.key));

/**
 * Several processes may share the database, so a request being answered holds its key with a
 * row of its own (a reservation), completed with its answer or deleted. Reservations, and
 * answers, waiting together go out in one statement (batches.ts), on `unflushed`: connections
 * whose commits do not wait for the disk. A statement each, each waiting for the disk, cost a
 * keyed call a third of its CPU in socket writes and three disk waits in a row (docs/benchmarks.md,
 * "PostgreSQL's Idempotency-Key statements batched"). Those connections find entries by their
 * index only, and the look for the entries holding keys runs there too: the table starts empty
 * and grows by every keyed call, and a plan cached while it was small read it whole for each
 * batch of answers (docs/benchmarks.md, sixteenth round). A statement that fails is sent again for
 * each of its requests alone, so one request's failure is never another's. Every statement here
 * may be sent twice across a lost connection: a reservation met again is recognised by its
 * token, and completing, releasing and purging change nothing the second time.
 */
export function pgIdempotency({ sql, idempotent }: Pg, unflushed: Sql): IdempotencyStore {
  /** Takes the free keys among `batch` (distinct keys, one stale window); returns those taken, with `resumed`. */
  async function takeFree(batch: Reserving[], staleWindow: number): Promise<Map<string, number>> {
    const rows = inLockOrder(batch.map((p) => p.r));
    const taken = await idempotent(
      () => unflushed<{ scope: string; key: string; resumed: number }[]>`INSERT INTO idempotency_keys
        (scope, idem_key, fingerprint, token, created_at, expires_at)
      SELECT * FROM unnest(${rows.map((r) => r.scope)}::text[], ${rows.map((r) => r.key)}::text[],
        ${rows.map((r) => r.fingerprint)}::text[], ${rows.map((r) => r.token)}::text[],
        ${rows.map((r) => r.now)}::bigint[], ${rows.map((r) => r.expiresAt)}::bigint[])
      ${unflushed.unsafe(RESERVE_WHEN_FREE)}${staleWindow}::bigint)
      RETURNING scope, idem_key AS key, resumed`,
    );
    return new Map(taken.map((t) => [entryKey(t.scope, t.key), t.resumed]));
  }

  /** The entries now holding the keys of `batch`. */
  async function entries(batch: Reserving[]): Promise<Map<string, IdempotencyRow>> {
    const rows = await idempotent(
      () => unflushed<(IdempotencyRow & { scope: string; key: string })[]>`SELECT scope, idem_key AS key, fingerprint,
        token, status, content_type AS "contentType", body, resumed
      FROM idempotency_keys WHERE (scope, idem_key) IN
        (SELECT * FROM unnest(${batch.map((p) => p.r.scope)}::text[], ${batch.map((p) => p.r.key)}::text[]))`,
    );
    return new Map(rows.map((row) => [entryKey(row.scope, row.key), row]));
  }

  async function reserveAll(batch: Reserving[]): Promise<void> {
    // A key asked twice in the batch is taken once; the later asks read it held by the first.
    const first = new Map<string, Reserving>();
    for (const p of batch) if (!first.has(p.at)) first.set(p.at, p);
    const byWindow = new Map<number, Reserving[]>();
    for (const p of first.values()) {
      const window = p.r.now - p.r.staleBefore;
      const group = byWindow.get(window);
      if (group) group.push(p);
      else byWindow.set(window, [p]);
    }
    const taken = new Map<string, number>();
    for (const [window, group] of byWindow)
      for (const [at, resumed] of await takeFree(group, window)) taken.set(at, resumed);
    const rest: Reserving[] = [];
    for (const p of batch) {
      const resumed = first.get(p.at) === p ? taken.get(p.at) : undefined;
      if (resumed === undefined) rest.push(p);
      else p.resolve({ state: resumed === 1 ? 'resumed' : 'reserved' });
    }
    if (rest.length === 0) return;
    const held = await entries(rest);
    for (const p of rest) {
      const row = held.get(p.at);
      if (row) p.resolve(claimOf(row, p.r));
      else if (p.attempt + 1 < RESERVE_ATTEMPTS) reservations.add({ ...p, attempt: p.attempt + 1 });
      else p.resolve({ state: 'in_progress' });
    }
  }

  async function completeAll(batch: Completing[]): Promise<void> {
    const rows = inLockOrder([...batch]);
    const done = await idempotent(
      () => unflushed<{ token: string }[]>`UPDATE idempotency_keys k
      SET status = a.status, content_type = a.content_type, body = a.body
      FROM unnest(${rows.map((c) => c.scope)}::text[], ${rows.map((c) => c.key)}::text[],
        ${rows.map((c) => c.token)}::text[], ${rows.map((c) => c.answer.status)}::integer[],
        ${rows.map((c) => c.answer.contentType)}::text[], ${rows.map((c) => c.answer.body)}::text[])
        AS a(scope, idem_key, token, status, content_type, body)
      WHERE k.scope = a.scope AND k.idem_key = a.idem_key AND k.token = a.token
        AND (k.status IS NULL OR k.status = a.status)
      RETURNING k.token`,
    );
    // A token is one request's own (a random UUID): it alone tells which answers were kept.
    const kept = new Set(done.map((d) => d.token));
    for (const c of batch) c.resolve(kept.has(c.token));
  }

  /** Sends `batch` in one statement; if that fails, each of its requests in one of its own. */
  const apart =
    <T extends Waiting<never>>(send: (batch: T[]) => Promise<void>) =>
    async (batch: T[]): Promise<void> => {
      try {
        await send(batch);
      } catch (err) {
        if (batch.length === 1) return batch[0].reject(err);
        await Promise.all(batch.map((one) => send([one]).catch(one.reject)));
      }
    };
  const reservations = new Batches<Reserving>(apart(reserveAll), MAX_BATCH, IN_FLIGHT);
  const completions = new Batches<Completing>(apart(completeAll), MAX_BATCH, IN_FLIGHT);

  return {
    reserveIdempotency: (r) =>
      new Promise((resolve, reject) =>
        reservations.add({ r, at: entryKey(r.scope, r.key), attempt: 0, resolve, reject }),
      ),
    completeIdempotency: (scope, key, token, answer) =>
      new Promise((resolve, reject) => completions.add({ scope, key, token, answer, resolve, reject })),
    async releaseIdempotency(scope, key, token) {
      await idempotent(
        () =>
          sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND idem_key = ${key} AND token = ${token} AND status IS NULL`,
      );
    },
    async purgeIdempotency(now) {
      const purged = await idempotent(() => sql`DELETE FROM idempotency_keys WHERE expires_at <= ${now}::bigint`);
      return purged.count;
    },
  };
}
