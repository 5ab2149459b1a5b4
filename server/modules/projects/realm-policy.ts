import { PASSWORD_MIN_LENGTH } from '../../../shared/constants.js';
import type { MailTemplate, MailTemplateKind } from '../../../shared/schemas/project-settings.js';
import type { Config } from '../../config.js';
import type { ProjectRow, ProjectSettingsRow } from '../../db/schema.js';
import { PLATFORM_BRAND, type MailBrand } from '../../mail/branding.js';
import type { CaptchaVerifier } from '../captcha/captcha.js';
import type { RealmPolicy } from '../realms/realm.js';
import { DEFAULT_MAX_ORGANIZATIONS_PER_USER } from '../../../shared/schemas/organizations.js';
import { parseStoredOverrides } from '../../../shared/i18n/overrides.js';
import { parseSignInMethods } from '../realms/sign-in-methods.js';

/** The platform's rules for its own accounts, and every project's until it sets its own: the environment's. */
export function platformPolicy(config: Config, captcha: CaptchaVerifier): RealmPolicy {
  return Object.freeze({
    passwordMinLength: PASSWORD_MIN_LENGTH,
    checkCommonPasswords: true,
    accessTokenTtlS: config.accessTokenTtlS,
    refreshTokenTtlS: config.refreshTokenTtlS,
    captcha,
    blockVpn: config.blockVpn,
    allowUnverifiedSignIn: true,
    mail: PLATFORM_BRAND,
    organizations: { selfService: false, maxPerUser: DEFAULT_MAX_ORGANIZATIONS_PER_USER, customClaims: null },
    // Developers sign in with a password, a passkey, a provider, and a mailed code unless PLATFORM_EMAIL_CODE is off.
    signInMethods: { methods: { email_code: config.platformEmailCode }, connections: {} },
  });
}

/** Stored as JSON text; a broken value reads as no templates rather than failing the project's mails. */
export function mailTemplatesOf(json: string | undefined): Partial<Record<MailTemplateKind, MailTemplate>> {
  try {
    const value: unknown = JSON.parse(json ?? '{}');
    return typeof value === 'object' && value !== null ? (value as Partial<Record<MailTemplateKind, MailTemplate>>) : {};
  } catch {
    return {};
  }
}

/** What of a project its mails carry by default. */
export type BrandedProject = Pick<ProjectRow, 'name' | 'accent_color' | 'logo_url'>;

/**
 * A project's mails are in its own name: the names, colour and templates its settings give, else its
 * name (From and signature), its accent colour and its logo; the "Secured by" line unless turned off.
 */
export function projectBrand(project: BrandedProject, row: ProjectSettingsRow | undefined): MailBrand {
  return {
    productName: row?.mail_product_name ?? project.name,
    senderName: row?.mail_sender_name ?? project.name,
    accentColor: row?.mail_accent_color ?? project.accent_color ?? PLATFORM_BRAND.accentColor,
    logoUrl: project.logo_url,
    securedBy: row?.mail_secured_by !== 0,
    templates: mailTemplatesOf(row?.mail_templates),
    locale: PLATFORM_BRAND.locale,
    stringOverrides: parseStoredOverrides(row?.string_overrides),
  };
}

/**
 * A project's rules for its end users: each setting it stored, the platform's for the others. The
 * captcha is the project's own when it set one, else `fallback` (none on the public API: the
 * platform's captcha is for browsers, not for a developer's backend).
 */
export function projectPolicy(
  platform: RealmPolicy,
  project: BrandedProject,
  row: ProjectSettingsRow | undefined,
  captcha: { own: CaptchaVerifier | null; fallback: CaptchaVerifier },
): RealmPolicy {
  const flag = (value: 0 | 1 | null | undefined, otherwise: boolean) => (value === null || value === undefined ? otherwise : value === 1);
  return Object.freeze({
    passwordMinLength: row?.password_min_length ?? platform.passwordMinLength,
    checkCommonPasswords: flag(row?.password_check_breached, platform.checkCommonPasswords),
    accessTokenTtlS: row?.access_token_ttl_s ?? platform.accessTokenTtlS,
    refreshTokenTtlS: row?.refresh_token_ttl_s ?? platform.refreshTokenTtlS,
    captcha: captcha.own ?? captcha.fallback,
    blockVpn: row?.vpn_policy ? row.vpn_policy === 'block' : platform.blockVpn,
    allowUnverifiedSignIn: flag(row?.allow_unverified_sign_in, platform.allowUnverifiedSignIn),
    mail: projectBrand(project, row),
    organizations: {
      selfService: row?.organizations_self_service === 1,
      maxPerUser: row?.max_organizations_per_user ?? DEFAULT_MAX_ORGANIZATIONS_PER_USER,
      customClaims: row?.custom_claims ?? null,
    },
    signInMethods: parseSignInMethods(row?.sign_in_methods),
  });
}
