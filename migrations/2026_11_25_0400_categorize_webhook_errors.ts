import { sql, type Kysely } from 'kysely';

// Frozen once landed.
// - webhook_deliveries.last_error holds a category from now on (dns_failed, connect_refused, timeout,
//   tls, http_status, not_public, connection_failed, endpoint_disabled), never resolver or socket text.
//   Rows written before held that text ("getaddrinfo ENOTFOUND db.internal", "connect ECONNREFUSED
//   10.0.0.5:5432", "Answered 500"…), which a project's team could read to map the server's network:
//   each is rewritten as the category its text names, the rest as connection_failed. The text is not
//   kept anywhere, so down() cannot bring it back.

const CATEGORIES = ['dns_failed', 'connect_refused', 'timeout', 'tls', 'http_status', 'not_public', 'connection_failed', 'endpoint_disabled'];

export async function up(db: Kysely<any>): Promise<void> {
  const text = sql`lower(last_error)`;
  await db
    .updateTable('webhook_deliveries')
    .set({
      last_error: sql`case
        when ${text} like 'answered %' then 'http_status'
        when ${text} like 'the endpoint is disabled%' then 'endpoint_disabled'
        when ${text} like '%not a public address%' then 'not_public'
        when ${text} like 'timed out%' or ${text} like '%timeout%' or ${text} like '%etimedout%' then 'timeout'
        when ${text} like '%getaddrinfo%' or ${text} like '%enotfound%' or ${text} like '%eai_again%' then 'dns_failed'
        when ${text} like '%econnrefused%' then 'connect_refused'
        when ${text} like '%certificate%' or ${text} like '%self-signed%' or ${text} like '%self signed%' or ${text} like '%ssl%' or ${text} like '%tls%' then 'tls'
        else 'connection_failed'
      end`,
    })
    .where('last_error', 'is not', null)
    .where('last_error', 'not in', CATEGORIES)
    .execute();
}

export async function down(): Promise<void> {}
