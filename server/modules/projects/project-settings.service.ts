import type { z } from 'zod';
import {
  MAIL_TEMPLATE_KINDS,
  mentionsPlaceholder,
  SETTINGS_MESSAGES,
  type MailPreview,
  type MailPreviewInputSchema,
  type MailTemplateKind,
  type ProjectSettings,
  type UpdateProjectSettingsInputSchema,
} from '../../../shared/schemas/project-settings.js';
import type { Deps } from '../../deps.js';
import type { ProjectSettingsRow, UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { renderCustomMail } from '../../mail/custom-template.js';
import type { MailMessage } from '../../mail/mailer.js';
import { passwordChangedMail, passwordResetMail, verificationMail } from '../../mail/templates.js';
import { changedFields, recordAudit } from '../audit/audit.service.js';
import { hostedPagesUrlOf } from './project-urls.js';
import { requireProjectRole } from './project-access.js';
import { findProjectSettings, saveProjectSettings } from './project-settings.repo.js';
import { mailTemplatesOf, projectBrand, projectPolicy } from './realm-policy.js';

type Templates = ProjectSettings['mail_templates'];

/** The answer: every rule as it applies now (the platform's where the project set none); never the captcha secret. */
function toSettings(deps: Deps, projectId: string, row: ProjectSettingsRow | undefined): ProjectSettings {
  const policy = projectPolicy(deps.platform.policy, row, { own: null, fallback: deps.captcha });
  const stored = mailTemplatesOf(row?.mail_templates);
  return {
    project_id: projectId,
    password_min_length: policy.passwordMinLength,
    password_check_breached: policy.checkCommonPasswords,
    access_token_ttl_s: policy.accessTokenTtlS,
    refresh_token_ttl_s: policy.refreshTokenTtlS,
    captcha_provider: row?.captcha_provider ?? 'none',
    captcha_site_key: row?.captcha_site_key ?? null,
    captcha_secret_set: Boolean(row?.captcha_secret),
    vpn_policy: policy.blockVpn ? 'block' : 'allow',
    allow_unverified_sign_in: policy.allowUnverifiedSignIn,
    mail_sender_name: row?.mail_sender_name ?? null,
    mail_product_name: row?.mail_product_name ?? null,
    mail_accent_color: row?.mail_accent_color ?? null,
    mail_templates: Object.fromEntries(MAIL_TEMPLATE_KINDS.map((kind) => [kind, stored[kind] ?? null])) as Templates,
    updated_at: row?.updated_at ?? null,
  };
}

/** What the audit log keeps of a change: every setting but the secret, of which only whether one is set. */
function audited(settings: ProjectSettings): Record<string, unknown> {
  const { project_id: _id, updated_at: _at, ...rest } = settings;
  return rest;
}

export async function getProjectSettings(deps: Deps, user: UserRow, projectId: string): Promise<ProjectSettings> {
  await requireProjectRole(deps, user, projectId, 'viewer');
  return toSettings(deps, projectId, await findProjectSettings(deps.db, projectId));
}

/**
 * Changes a project's rules for its end users, in one transaction with its audit entry (before and
 * after, never the secret); every instance drops its cached copy before the answer. A first change
 * stores the rules in force then, so the project stops following the platform's defaults.
 */
export async function updateProjectSettings(
  deps: Deps,
  user: UserRow,
  projectId: string,
  input: z.output<typeof UpdateProjectSettingsInputSchema>,
  info: RequestInfo,
): Promise<ProjectSettings> {
  const project = await requireProjectRole(deps, user, projectId, 'admin');
  await deps.limiters.projectSettingsUpdatesPerUser.consume(user.id);
  const after = await withTransaction(deps, async (tx) => {
    const row = await findProjectSettings(tx.db, projectId);
    const before = toSettings(deps, projectId, row);
    const next = nextRow(deps, projectId, row, before, input);
    next.updated_at = isoNow(deps.clock);
    await saveProjectSettings(tx.db, next);
    const updated = toSettings(deps, projectId, next);
    const changes = changedFields(audited(before), audited(updated));
    if (input.captcha_secret) changes.after.captcha_secret = '(changed)';
    if (Object.keys(changes.after).length > 0) {
      await recordAudit(tx, { user, info }, { projectId, action: 'settings.updated', target: { type: 'project', id: projectId, label: project.name }, ...changes });
    }
    return updated;
  });
  await deps.projectRealms.settingsChanged();
  return after;
}

function nextRow(
  deps: Deps,
  projectId: string,
  row: ProjectSettingsRow | undefined,
  current: ProjectSettings,
  input: z.output<typeof UpdateProjectSettingsInputSchema>,
): ProjectSettingsRow {
  const pick = <T>(value: T | undefined, otherwise: T) => (value === undefined ? otherwise : value);
  const accessTtl = pick(input.access_token_ttl_s, current.access_token_ttl_s);
  const refreshTtl = pick(input.refresh_token_ttl_s, current.refresh_token_ttl_s);
  if ((input.access_token_ttl_s !== undefined || input.refresh_token_ttl_s !== undefined) && refreshTtl < accessTtl) {
    throw new AppError('UNPROCESSABLE_CONTENT', SETTINGS_MESSAGES.refreshShorterThanAccess);
  }

  const provider = pick(input.captcha_provider, current.captcha_provider);
  const siteKey = provider === 'none' ? null : pick(input.captcha_site_key, current.captcha_site_key ?? '') || null;
  const secret = provider === 'none' ? null : input.captcha_secret ? deps.secretBox.seal(input.captcha_secret) : (row?.captcha_secret ?? null);
  if (provider !== 'none' && (!siteKey || !secret)) throw new AppError('UNPROCESSABLE_CONTENT', SETTINGS_MESSAGES.captchaKeysRequired);

  const templates: Templates = { ...current.mail_templates };
  for (const kind of MAIL_TEMPLATE_KINDS) {
    const template = input.mail_templates?.[kind];
    if (template === undefined) continue;
    // Without its link a verification or reset mail is useless.
    if (template && kind !== 'password_changed' && !mentionsPlaceholder(template, 'link')) throw new AppError('UNPROCESSABLE_CONTENT', SETTINGS_MESSAGES.linkRequired);
    templates[kind] = template;
  }
  const storedTemplates = Object.fromEntries(Object.entries(templates).filter(([, template]) => template !== null));

  // What the project leaves untouched keeps following the platform (null), unless stored before.
  const keep = <K extends keyof ProjectSettingsRow>(key: K, value: ProjectSettingsRow[K] | undefined) => (value === undefined ? (row?.[key] ?? null) : value);
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? (1 as const) : (0 as const));
  return {
    project_id: projectId,
    password_min_length: keep('password_min_length', input.password_min_length),
    password_check_breached: keep('password_check_breached', flag(input.password_check_breached)),
    access_token_ttl_s: keep('access_token_ttl_s', input.access_token_ttl_s),
    refresh_token_ttl_s: keep('refresh_token_ttl_s', input.refresh_token_ttl_s),
    captcha_provider: provider === 'none' ? null : provider,
    captcha_site_key: siteKey,
    captcha_secret: secret,
    vpn_policy: keep('vpn_policy', input.vpn_policy),
    allow_unverified_sign_in: keep('allow_unverified_sign_in', flag(input.allow_unverified_sign_in)),
    mail_sender_name: keep('mail_sender_name', input.mail_sender_name),
    mail_product_name: keep('mail_product_name', input.mail_product_name),
    mail_accent_color: keep('mail_accent_color', input.mail_accent_color),
    mail_templates: JSON.stringify(storedTemplates),
    updated_at: row?.updated_at ?? '',
  };
}

const SAMPLE_RECIPIENT = 'jane.doe@example.com';

/**
 * One mail as the project's end users would get it, to a sample address with a sample link: the
 * saved settings, with the input's unsaved ones (names, colour, template) over them.
 */
export async function previewProjectMail(deps: Deps, user: UserRow, projectId: string, input: z.output<typeof MailPreviewInputSchema>): Promise<MailPreview> {
  const project = await requireProjectRole(deps, user, projectId, 'admin');
  const row = await findProjectSettings(deps.db, projectId);
  const saved = projectBrand(row);
  const brand = {
    productName: input.mail_product_name === undefined ? saved.productName : (input.mail_product_name ?? projectBrand(undefined).productName),
    senderName: input.mail_sender_name === undefined ? saved.senderName : input.mail_sender_name,
    accentColor: input.mail_accent_color === undefined ? saved.accentColor : (input.mail_accent_color ?? projectBrand(undefined).accentColor),
    templates: saved.templates,
  };
  const template = input.template === undefined ? brand.templates[input.kind] : input.template;
  const hosted = hostedPagesUrlOf(deps.config, project.project_key);
  const link = `${hosted}${SAMPLE_PATHS[input.kind]}`;
  const mail: MailMessage = template
    ? renderCustomMail(SAMPLE_RECIPIENT, template, { product_name: brand.productName, email: SAMPLE_RECIPIENT, link }, brand)
    : BUILT_IN[input.kind](SAMPLE_RECIPIENT, link, brand);
  return { from_name: mail.fromName ?? deps.config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html };
}

const SAMPLE_PATHS: Record<MailTemplateKind, string> = {
  verification: '/verify-email?token=sample-token',
  password_reset: '/reset-password?token=sample-token',
  password_changed: '/login',
};

const BUILT_IN: Record<MailTemplateKind, (to: string, link: string, brand: ReturnType<typeof projectBrand>) => MailMessage> = {
  verification: (to, link, brand) => verificationMail(to, link, brand),
  password_reset: (to, link, brand) => passwordResetMail(to, link, brand),
  password_changed: (to, _link, brand) => passwordChangedMail(to, brand),
};
