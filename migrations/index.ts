import type { Migration } from 'kysely';
import * as createAccounts from './2026_11_22_0300_create_accounts.js';
import * as createProjects from './2026_11_22_0400_create_projects.js';
import * as hardenTokens from './2026_11_23_1200_harden_tokens.js';
import * as addTwoFactor from './2026_11_23_1300_add_two_factor.js';
import * as addPasskeys from './2026_11_23_1400_add_passkeys.js';
import * as addSessionIdleTimeout from './2026_11_23_1500_add_session_idle_timeout.js';
import * as addNotificationSettings from './2026_11_23_1600_add_notification_settings.js';
import * as addEmailChange from './2026_11_23_1610_add_email_change.js';
import * as addOpenIdProvider from './2026_11_24_0100_add_openid_provider.js';
import * as addSocialSignIn from './2026_11_24_0200_add_social_sign_in.js';
import * as addAuditLog from './2026_11_24_0300_add_audit_log.js';
import * as addWebhooks from './2026_11_24_0400_add_webhooks.js';
import * as addProjectTeams from './2026_11_24_0500_add_project_teams.js';
import * as addProjectSettings from './2026_11_24_0600_add_project_settings.js';
import * as addStepUp from './2026_11_25_0100_add_step_up.js';
import * as addExportIndexes from './2026_11_25_0200_add_export_indexes.js';
import * as boundPendingRows from './2026_11_25_0300_bound_pending_rows.js';
import * as categorizeWebhookErrors from './2026_11_25_0400_categorize_webhook_errors.js';
import * as guardAuditLog from './2026_11_25_0401_guard_audit_log.js';
import * as addLinkContinuations from './2026_11_26_0300_add_link_continuations.js';
import * as addMailSecuredBy from './2026_11_26_0301_add_mail_secured_by.js';
import * as addIdentityLinkReturnTo from './2026_11_26_0302_add_identity_link_return_to.js';
import * as addMailOutbox from './2026_11_26_0400_add_mail_outbox.js';
import * as addUserLocale from './2026_11_26_0500_add_user_locale.js';
import * as notifyLookupChanges from './2026_11_26_0600_notify_lookup_changes.js';
import * as addOrganizations from './2026_11_26_0700_add_organizations.js';
import * as addWebhookDeliveryDetail from './2026_11_26_0810_add_webhook_delivery_detail.js';
import * as addSessionClient from './2026_11_26_0830_add_session_client.js';
import * as addPasswordless from './2026_11_27_0100_add_passwordless.js';
import * as addUserImport from './2026_11_27_0200_add_user_import.js';
import * as addSsoConnections from './2026_11_27_0400_add_sso_connections.js';
import * as addSessionRevocations from './2026_11_27_0500_add_session_revocations.js';
import * as addMachineAndDeviceClients from './2026_11_27_0600_add_machine_and_device_clients.js';
import * as addScimProvisioning from './2026_11_28_0100_add_scim_provisioning.js';
import * as addSsoIdentities from './2026_11_28_0600_add_sso_identities.js';
import * as addAdminPortal from './2026_11_28_0700_add_admin_portal.js';
import * as platformEmailCodes from './2026_11_28_0800_platform_email_codes.js';
import * as feedMachineClientRevocations from './2026_11_28_0900_feed_machine_client_revocations.js';
import * as addSamlSpKeys from './2026_11_28_1000_add_saml_sp_keys.js';

/** Every migration, in order. Listed statically so they run the same under tsx, tests and bundlers. */
export const migrations: Record<string, Migration> = {
  '2026_11_22_0300_create_accounts': createAccounts,
  '2026_11_22_0400_create_projects': createProjects,
  '2026_11_23_1200_harden_tokens': hardenTokens,
  '2026_11_23_1300_add_two_factor': addTwoFactor,
  '2026_11_23_1400_add_passkeys': addPasskeys,
  '2026_11_23_1500_add_session_idle_timeout': addSessionIdleTimeout,
  '2026_11_23_1600_add_notification_settings': addNotificationSettings,
  '2026_11_23_1610_add_email_change': addEmailChange,
  '2026_11_24_0100_add_openid_provider': addOpenIdProvider,
  '2026_11_24_0200_add_social_sign_in': addSocialSignIn,
  '2026_11_24_0300_add_audit_log': addAuditLog,
  '2026_11_24_0400_add_webhooks': addWebhooks,
  '2026_11_24_0500_add_project_teams': addProjectTeams,
  '2026_11_24_0600_add_project_settings': addProjectSettings,
  '2026_11_25_0100_add_step_up': addStepUp,
  '2026_11_25_0200_add_export_indexes': addExportIndexes,
  '2026_11_25_0300_bound_pending_rows': boundPendingRows,
  '2026_11_25_0400_categorize_webhook_errors': categorizeWebhookErrors,
  '2026_11_25_0401_guard_audit_log': guardAuditLog,
  '2026_11_26_0300_add_link_continuations': addLinkContinuations,
  '2026_11_26_0301_add_mail_secured_by': addMailSecuredBy,
  '2026_11_26_0302_add_identity_link_return_to': addIdentityLinkReturnTo,
  '2026_11_26_0400_add_mail_outbox': addMailOutbox,
  '2026_11_26_0500_add_user_locale': addUserLocale,
  '2026_11_26_0600_notify_lookup_changes': notifyLookupChanges,
  '2026_11_26_0700_add_organizations': addOrganizations,
  '2026_11_26_0810_add_webhook_delivery_detail': addWebhookDeliveryDetail,
  '2026_11_26_0830_add_session_client': addSessionClient,
  '2026_11_27_0100_add_passwordless': addPasswordless,
  '2026_11_27_0200_add_user_import': addUserImport,
  '2026_11_27_0400_add_sso_connections': addSsoConnections,
  '2026_11_27_0500_add_session_revocations': addSessionRevocations,
  '2026_11_27_0600_add_machine_and_device_clients': addMachineAndDeviceClients,
  '2026_11_28_0100_add_scim_provisioning': addScimProvisioning,
  '2026_11_28_0600_add_sso_identities': addSsoIdentities,
  '2026_11_28_0700_add_admin_portal': addAdminPortal,
  '2026_11_28_0800_platform_email_codes': platformEmailCodes,
  '2026_11_28_0900_feed_machine_client_revocations': feedMachineClientRevocations,
  '2026_11_28_1000_add_saml_sp_keys': addSamlSpKeys,
};
