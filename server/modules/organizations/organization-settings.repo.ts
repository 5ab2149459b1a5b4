import type { Db } from '../../db/connect.js';
import type { ProjectSettingsRow } from '../../db/schema.js';
import { invalidateOnCommit } from '../../db/transaction.js';

type OrganizationSettingsColumns = Pick<ProjectSettingsRow, 'organizations_self_service' | 'max_organizations_per_user' | 'custom_claims' | 'updated_at'>;

/** A project's organization settings live in its project_settings row (its realm's policy reads them, cached). */
export async function findOrganizationSettings(db: Db, projectId: string) {
  return db
    .selectFrom('project_settings')
    .select(['organizations_self_service', 'max_organizations_per_user', 'custom_claims'])
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** Writes only these columns (the row is made on a project's first change); every instance drops its cached settings once it commits. */
export async function saveOrganizationSettings(db: Db, projectId: string, columns: OrganizationSettingsColumns): Promise<void> {
  await db
    .insertInto('project_settings')
    .values({
      project_id: projectId,
      password_min_length: null,
      password_check_breached: null,
      access_token_ttl_s: null,
      refresh_token_ttl_s: null,
      captcha_provider: null,
      captcha_site_key: null,
      captcha_secret: null,
      vpn_policy: null,
      allow_unverified_sign_in: null,
      mail_sender_name: null,
      mail_product_name: null,
      mail_accent_color: null,
      mail_secured_by: null,
      ...columns,
    })
    .onConflict((conflict) => conflict.column('project_id').doUpdateSet(columns))
    .execute();
  invalidateOnCommit(db, 'project-settings');
}
