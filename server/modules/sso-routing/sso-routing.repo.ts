import type { Db } from '../../db/connect.js';
import type { SsoConnectionRow } from '../../db/schema.js';

/** The enabled connection whose verified domain this is, within the project. */
export async function findConnectionByVerifiedDomain(db: Db, projectId: string, domain: string): Promise<SsoConnectionRow | undefined> {
  return db
    .selectFrom('sso_domains')
    .innerJoin('sso_connections', 'sso_connections.id', 'sso_domains.connection_id')
    .selectAll('sso_connections')
    .where('sso_domains.project_id', '=', projectId)
    .where('sso_domains.domain', '=', domain)
    .where('sso_domains.verified_at', 'is not', null)
    .where('sso_connections.enabled', '=', 1)
    .executeTakeFirst();
}
