import type { Database } from 'better-sqlite3';
import { claimOf, entryKey as id, type IdempotencyRow } from '../idempotency.ts';
import type {
  AnswerNotKept,
  IdempotencyClaim,
  IdempotencyHold,
  IdempotencyReservation,
  IdempotencyStore,
  IdempotentAnswer,
} from '../types.ts';

/** A request being answered, held in this process's memory. */
interface Held {
  fingerprint: string;
  token: string;
  createdAt: number;
  expiresAt: number;
  /** The row of the entry this request replaces (expired, or left unanswered), deleted when it writes its own. */
  replaces: number | undefined;
  /** This request's row, once written. */
  seq?: number;
  /** Its answer, given and not yet written. */
  answered?: Answered;
}

interface Entry extends IdempotencyRow {
  scope: string;
  key: string;
  expiresAt: number;
}

const UNANSWERED = { status: null, contentType: null, body: null };
/** Rows of the index read at a time when it is first loaded. */
const LOAD_PAGE_ROWS = 10_000;
/** Answers given within this long are written together, in one transaction. */
const ANSWER_WRITE_DELAY_MS = 10;
type Answered = typeof UNANSWERED | IdempotentAnswer | AnswerNotKept;

/**
 * A SQLite file serves one process (docs/operations.md, "Several processes on PostgreSQL"), so
 * the whole index of its entries is in this process's memory: the requests still being answered,
 * and where each written entry's row is (its `seq`, read back from the table on first use). A
 * first request reads nothing; only a retry reads its row. The table is appended to:
 * every key is a random hash, and a B-tree on it dirtied a page of its own in each commit, most
 * of what an Idempotency-Key cost (docs/benchmarks.md, "Idempotency-Key entries appended").
 *
 * The database is written twice per first request: the entry, unanswered, in the commit of the
 * request's charge (`writeHold`, called by the counters), then its answer, behind it: the answer
 * goes out at once, kept in memory, and the answers of the next few milliseconds are written in
 * one transaction (a commit per answer, awaited by its request, cost a keyed call a tenth of its
 * store time; docs/benchmarks.md, "What an Idempotency-Key cannot cost less than"). So once a
 * call is charged its entry is on disk: an unanswered entry that no request here holds was left
 * by a process that died before its answer was written, and its retry is `resumed`, not charged
 * again.
 */
export function sqliteIdempotency(db: Database) {
  const held = new Map<string, Held>();

  const read = db.prepare<[number], Entry>(`SELECT scope, idem_key AS key, fingerprint, token, status,
    content_type AS contentType, body, expires_at AS expiresAt FROM idempotency_keys WHERE seq = ?`);
  const insert = db.prepare(`INSERT INTO idempotency_keys
    (scope, idem_key, fingerprint, token, status, content_type, body, created_at, expires_at)
    VALUES (@scope, @key, @fingerprint, @token, @status, @contentType, @body, @createdAt, @expiresAt)`);
  const answer = db.prepare(`UPDATE idempotency_keys SET status = @status, content_type = @contentType, body = @body
    WHERE seq = @seq AND token = @token`);
  // An answered live entry is never replaced: a request takes over only one expired or left unanswered.
  const replace = db.prepare('DELETE FROM idempotency_keys WHERE seq = ? AND (status IS NULL OR expires_at <= ?)');
  const dropUnanswered = db.prepare('DELETE FROM idempotency_keys WHERE seq = ? AND status IS NULL');
  const purge = db.prepare<[number], { seq: number; scope: string; key: string }>(
    'DELETE FROM idempotency_keys WHERE expires_at <= ? RETURNING seq, scope, idem_key AS key',
  );

  // Read on first use, not when the store opens: the `mod97` commands that open the file never
  // need it. Read in pages, the event loop given back between them, so that a server starting on
  // a large table answers every other request meanwhile (a page takes about 35 ms here). Expired
  // rows too, until purged: each reservation judges expiry by its own clock. Every use of the
  // index comes after a reservation or a purge, which wait for it.
  const rows = new RowIndex();
  const page = db.prepare<[number, number], { seq: number; scope: string; key: string }>(
    'SELECT seq, scope, idem_key AS key FROM idempotency_keys WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  async function load(): Promise<void> {
    for (let after = 0; ; ) {
      const batch = page.all(after, LOAD_PAGE_ROWS);
      for (const row of batch) rows.add(row.scope, row.key, row.seq);
      if (batch.length < LOAD_PAGE_ROWS) return;
      after = batch[batch.length - 1].seq;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  let loaded: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (loaded ??= load().catch((err: unknown) => {
      loaded = undefined; // read again by the next request
      throw err;
    }));

  /** The entry written for this key, read from its row; none when the row is gone (a commit rolled back). */
  function entryOf(scope: string, key: string): (Entry & { seq: number }) | undefined {
    // Usually no candidate, or one; the latest row of the key is its entry. A row replaced since
    // is forgotten here, where no transaction is open: one that rolled back is still a candidate.
    for (const seq of rows.candidates(scope, key)) {
      const row = read.get(seq);
      if (!row) rows.remove(scope, key, seq);
      else if (row.scope === scope && row.key === key) return { ...row, seq };
    }
    return undefined;
  }

  function claim(r: IdempotencyReservation): IdempotencyClaim {
    const at = id(r.scope, r.key);
    let holder = held.get(at);
    // A retry of a request whose answer is not written yet: it is written now, then read as any other.
    if (holder?.answered) {
      writeUnwritten();
      holder = held.get(at);
    }
    // A request held past staleBefore hangs: the key may be taken over, as an entry left unanswered may be.
    if (holder && holder.createdAt > r.staleBefore) return claimOf({ ...holder, ...UNANSWERED }, r);
    const entry = entryOf(r.scope, r.key);
    const live = entry && entry.expiresAt > r.now ? entry : undefined;
    if (live && live.status !== null) return claimOf(live, r);
    held.set(at, {
      fingerprint: r.fingerprint,
      token: r.token,
      createdAt: r.now,
      expiresAt: r.expiresAt,
      replaces: entry?.seq,
    });
    const left = holder ?? live;
    return left?.fingerprint === r.fingerprint ? { state: 'resumed' } : { state: 'reserved' };
  }

  /** The holder of the key, while `token` is still the one holding it. */
  function holding(scope: string, key: string, token: string): Held | undefined {
    const holder = held.get(id(scope, key));
    return holder?.token === token ? holder : undefined;
  }

  /** Appends the holder's entry, in place of the one it replaces. Runs inside a transaction, maybe twice (turn-commit.ts, writeUnwritten). */
  function append(scope: string, key: string, holder: Held, answered: Answered): void {
    if (holder.replaces !== undefined) replace.run(holder.replaces, holder.createdAt);
    const { fingerprint, token, createdAt, expiresAt } = holder;
    const row = { scope, key, fingerprint, token, createdAt, expiresAt, ...answered };
    holder.seq = Number(insert.run(row).lastInsertRowid);
    rows.add(scope, key, holder.seq);
  }

  /** `charged`: the row written with the request's charge, if any (taken when the answer is given: a failed batch sets `holder.seq` too). */
  let unwritten: Array<{ scope: string; key: string; holder: Held; charged: number | undefined }> = [];
  const writeAnswer = ({ scope, key, holder, charged }: (typeof unwritten)[number]) => {
    const answered = holder.answered ?? UNANSWERED;
    if (charged === undefined) append(scope, key, holder, answered);
    else answer.run({ seq: charged, token: holder.token, ...answered });
  };
  const writeAll = db.transaction((batch: typeof unwritten) => {
    for (const one of batch) writeAnswer(one);
  });
  const writeOne = db.transaction(writeAnswer);
  /**
   * Writes the answers given since the last call, then lets their keys go. When the batch fails,
   * each is written alone; one that still cannot be (a full disk) is lost as a crash would lose
   * it: a charged call's entry stays unanswered, and its retry is resumed, uncharged. Nothing to
   * report here: the same disk fails the charges of the calls after it, with a 503 each.
   */
  function writeUnwritten(): void {
    const batch = unwritten;
    unwritten = [];
    try {
      writeAll(batch);
    } catch {
      for (const one of batch) {
        try {
          writeOne(one);
        } catch {
          // lost, as above
        }
      }
    }
    for (const { scope, key, holder } of batch) if (holding(scope, key, holder.token)) held.delete(id(scope, key));
  }

  const store: IdempotencyStore = {
    async reserveIdempotency(reservation) {
      await ready();
      return claim(reservation);
    },
    async completeIdempotency(scope, key, token, answered) {
      const holder = holding(scope, key, token);
      if (!holder) return false;
      // Held, answered, until written: a retry meanwhile gets this answer, never a second first request.
      holder.answered = answered;
      unwritten.push({ scope, key, holder, charged: holder.seq });
      if (unwritten.length === 1) setTimeout(writeUnwritten, ANSWER_WRITE_DELAY_MS).unref();
      return true;
    },
    async releaseIdempotency(scope, key, token) {
      const holder = holding(scope, key, token);
      if (!holder) return;
      held.delete(id(scope, key));
      // The entry written with a charge since refunded (or one resumed and refused): the key is free again.
      const seq = holder.seq ?? holder.replaces;
      if (seq === undefined) return;
      dropUnanswered.run(seq);
      rows.remove(scope, key, seq);
    },
    async purgeIdempotency(now) {
      await ready();
      writeUnwritten();
      // A request that never settled (it cannot, unless a step before it threw) is let go with its day.
      for (const [at, holder] of held) if (holder.expiresAt <= now) held.delete(at);
      const purged = purge.all(now);
      for (const { seq, scope, key } of purged) rows.remove(scope, key, seq);
      return purged.length;
    },
  };

  /** Inside the charge's transaction: the entry of the key `hold` names, unanswered, while its request holds it. */
  function writeHold({ scope, key, token }: IdempotencyHold): void {
    const holder = holding(scope, key, token);
    if (holder) append(scope, key, holder, UNANSWERED);
  }

  return { store, writeHold, writeUnwritten };
}

/**
 * Where each written entry's row is (its seq), by a 30-bit hash of its scope and key: the rows
 * whose hash it is are its candidates, and reading one tells whether it is the key's. Numbers
 * that small are no objects of their own to V8, so the index is one table the garbage collector
 * passes over whole, where a map keyed by each key's text gave it one string an entry to visit:
 * with 260,000 entries a full collection took 19.5 ms that way and 6.0 ms this way (5.5 with no
 * index; docs/benchmarks.md, "Idempotency-Key entries appended"). About 30 bytes an entry.
 */
class RowIndex {
  /** A seq, or the seqs (latest first) of the keys sharing a hash. */
  private readonly byHash = new Map<number, number | number[]>();

  /** The rows that may be the key's, latest first. */
  candidates(scope: string, key: string): readonly number[] {
    const found = this.byHash.get(hashOf(scope, key));
    return found === undefined ? [] : typeof found === 'number' ? [found] : found;
  }

  add(scope: string, key: string, seq: number): void {
    const at = hashOf(scope, key);
    const found = this.byHash.get(at);
    if (found === undefined) this.byHash.set(at, seq);
    else
      this.byHash.set(
        at,
        [seq, ...(typeof found === 'number' ? [found] : found)].sort((a, b) => b - a),
      );
  }

  remove(scope: string, key: string, seq: number): void {
    const at = hashOf(scope, key);
    const found = this.byHash.get(at);
    if (found === seq) this.byHash.delete(at);
    else if (Array.isArray(found)) {
      const left = found.filter((s) => s !== seq);
      this.byHash.set(at, left.length === 1 ? left[0] : left);
    }
  }
}

/** FNV-1a over scope and key, cut to 30 bits: a small integer to V8 on every platform (exported for its test). */
export function hashOf(scope: string, key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < scope.length; i++) h = Math.imul(h ^ scope.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ 10, 0x01000193);
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}
