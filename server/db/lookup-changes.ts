import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** The channel the migration's triggers notify (migrations/2026_11_26_0600_notify_lookup_changes.ts). */
export const LOOKUP_CHANGES_CHANNEL = 'authplatform_lookup_changes';

/**
 * How often the listening connection is asked whether it still answers, and how long it may take.
 * A connection that dies without closing (a network partition) would otherwise leave its instance
 * deaf to other writers; past these, remembered rows are no longer answered, so a change made
 * elsewhere is seen within about a second even when nothing told this instance of it.
 */
export const LISTENER_HEARTBEAT_MS = 500;
export const LISTENER_TIMEOUT_MS = 500;
const RECONNECT_DELAY_MS = 500;

/**
 * What PostgreSQL's remembered lookup rows (prepared-lookup.ts) are checked against, the counterpart of
 * SQLite's PRAGMA data_version: `generation` moves whenever a session, user, API key or project may
 * have changed, and a row read before the move is not answered again.
 *
 * - This instance's own changes move it once they commit, before its caller goes on (trackWrites).
 * - Everyone's changes (other instances, `npm run admin`, an operator's SQL) reach it as a
 *   notification of the tables' triggers, while `listening`; when the listening connection is lost,
 *   nothing is remembered until it listens again.
 * - `announce` is told of each commit of this instance that changed those tables, and holds the
 *   commit's caller until the other instances have dropped what they remember (the invalidations over
 *   Redis, or from the cluster's first process, which wait for each instance to confirm).
 */
export interface LookupChanges {
  /** The database whose changes these are, for the listening connection. */
  readonly databaseUrl: string;
  generation: number;
  listening: boolean;
  /**
   * The payload of the last notification heard. The triggers send none; a notification with one sent
   * after some changes tells whoever sent it that the notifications of those changes have been heard
   * (one connection hears them in commit order).
   */
  lastPayload: string;
  announce: (() => Promise<void>) | null;
}

/** A statement that changes a watched table (as Kysely writes them, quoted, and as hand-written SQL does). */
const CHANGES_WATCHED = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?"?(?:sessions|users|api_keys|projects)"?(?![\w$])/i;
const READS = /^\s*select\b/i;
const BEGINS = /^\s*(?:begin|start\s+transaction)\b/i;
/** The end of the transaction, not of a savepoint (`rollback to savepoint`, `release savepoint` keep it open). */
const ENDS = /^\s*(?:commit|end|abort|rollback(?!\s+to\b))\b/i;

const WATCHED_TABLES = new Set(['sessions', 'users', 'api_keys', 'projects']);
const TABLES_READ = /\b(?:from|join)\s+"?(\w+)"?/gi;

export function watchesChange(sqlText: string): boolean {
  return CHANGES_WATCHED.test(sqlText);
}

/** Whether every table a query reads is watched, so a row it read can be remembered until one changes. */
export function readsOnlyWatched(sqlText: string): boolean {
  const tables = [...sqlText.matchAll(TABLES_READ)].map((match) => match[1]!.toLowerCase());
  return tables.length > 0 && tables.every((table) => WATCHED_TABLES.has(table));
}

type Query = (...args: unknown[]) => unknown;

/**
 * Makes a pooled connection report the changes it commits to the watched tables. Kysely runs every
 * statement, `begin` and `commit` included, through `client.query(text, values)`; other forms
 * (cursors, callbacks) only read and pass through.
 */
export function trackWrites(client: pg.ClientBase, changes: LookupChanges): void {
  const original = client.query.bind(client) as Query;
  let inTransaction = false;
  let changedInTransaction = false;
  const committed = async () => {
    changes.generation += 1;
    // The change is committed whatever happens to the announcement (which gives up on its own after a while).
    await changes.announce?.().catch(() => {});
  };
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [text] = args;
    if (typeof text !== 'string' || READS.test(text) || typeof args[args.length - 1] === 'function') return original(...args);
    if (BEGINS.test(text)) {
      inTransaction = true;
      changedInTransaction = false;
      return original(...args);
    }
    if (inTransaction) {
      if (ENDS.test(text)) {
        const changed = changedInTransaction;
        inTransaction = changedInTransaction = false;
        if (!changed) return original(...args);
        return settled(original(...args) as Promise<unknown>, committed);
      }
      if (watchesChange(text)) changedInTransaction = true;
      return original(...args);
    }
    if (!watchesChange(text)) return original(...args);
    return settled(original(...args) as Promise<unknown>, committed);
  };
}

/** The statement's own outcome, once `after` is done (a failed statement may have changed nothing, or everything). */
async function settled<T>(statement: Promise<T>, after: () => Promise<void>): Promise<T> {
  try {
    return await statement;
  } finally {
    await after();
  }
}

export interface LookupChangesListener {
  close(): Promise<void>;
}

/**
 * LISTENs on its own connection (not a pooled one: a pooled connection is lent to anyone), answers a
 * heartbeat, and connects again after losing it. Each notification, each loss and each new LISTEN
 * moves the generation: what was read before a gap may have changed during it.
 */
export function listenForLookupChanges(changes: LookupChanges, logger: FastifyBaseLogger): LookupChangesListener {
  let client: pg.Client | null = null;
  let closed = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let reconnect: NodeJS.Timeout | undefined;
  let lostBefore = false;

  const lose = (current: pg.Client, error?: unknown) => {
    if (client !== current) return;
    client = null;
    clearInterval(heartbeat);
    changes.listening = false;
    changes.generation += 1;
    if (!closed && !lostBefore) logger.warn({ err: error }, 'stopped hearing of changes to sessions and keys from PostgreSQL: their lookups are read from the database until it is back');
    lostBefore = true;
    endWithin(current, LISTENER_TIMEOUT_MS);
    if (!closed) reconnect = setTimeout(connect, RECONNECT_DELAY_MS);
  };

  const connect = () => {
    if (closed) return;
    const current = new pg.Client({
      connectionString: changes.databaseUrl,
      keepAlive: true,
      connectionTimeoutMillis: LISTENER_TIMEOUT_MS * 4,
      query_timeout: LISTENER_TIMEOUT_MS,
      application_name: 'authplatform-lookup-changes',
    });
    client = current;
    current.on('error', (error) => lose(current, error));
    current.on('end', () => lose(current));
    current.on('notification', (notification) => {
      changes.generation += 1;
      changes.lastPayload = notification.payload ?? '';
    });
    current
      .connect()
      .then(() => current.query(`listen ${LOOKUP_CHANGES_CHANNEL}`))
      .then(() => {
        if (client !== current) return;
        changes.generation += 1;
        changes.listening = true;
        if (lostBefore) logger.info('hearing of changes to sessions and keys from PostgreSQL again');
        lostBefore = false;
        heartbeat = setInterval(() => current.query('select 1').catch((error: unknown) => lose(current, error)), LISTENER_HEARTBEAT_MS);
        heartbeat.unref();
      })
      .catch((error: unknown) => lose(current, error));
  };

  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(reconnect);
      clearInterval(heartbeat);
      changes.listening = false;
      const current = client;
      client = null;
      if (current) await endWithin(current, LISTENER_TIMEOUT_MS);
    },
  };
}

/** Ends a connection politely, or drops it when the other side does not answer (a partition would hold `end` forever). */
async function endWithin(client: pg.Client, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const dropped = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      resolve();
    }, ms);
  });
  await Promise.race([client.end().catch(() => {}), dropped]);
  clearTimeout(timer);
}
