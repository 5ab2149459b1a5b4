/**
 * Which database errors mean "the database cannot serve right now, try again shortly" rather than a
 * fault of the request or of the code: the caller gets a 503 with Retry-After instead of a 500.
 *
 * PostgreSQL (pg): a connection that was closed or could not be made (SQLSTATE class 08; 57P01–57P03
 * an administrator, a crash or a restart ended it; 53300 too many connections; the socket's own
 * errors), and the pool's wait for a connection running out (connectionTimeoutMillis). pg raises some
 * of these as plain errors, recognised by their message. SQLite: the write lock (or a table lock)
 * still held by another connection once busy_timeout has passed.
 */
const POSTGRES_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const PG_MESSAGES = new Set([
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
    if (code.startsWith('08') || POSTGRES_STATES.has(code) || SOCKET_CODES.has(code)) return true;
  }
  // Node reports a refused connection to each of a name's addresses together.
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return PG_MESSAGES.has(error.message);
}
