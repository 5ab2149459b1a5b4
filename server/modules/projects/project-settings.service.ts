import type { z } from 'zod';
import {
  isOwnCaptcha,
  MAIL_TEMPLATE_KINDS,
  SIGN_IN_METHODS,
  mentionsPlaceholder,
  SETTINGS_MESSAGES,
  type MailPreview,
  type MailPreviewInputSchema,
  type MailTemplateKind,
  type ProjectSettings,
  type UpdateProjectSettingsInputSchema,
} from '../../../shared/schemas/project-settings.js';
import { builtInMailTemplate } from '../../../shared/mail-templates.js';
import type { Deps } from '../../deps.js';
import { queueMail } from '../../mail/outbox.js';
import type { ProjectRow, ProjectSettingsRow, UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import type { RequestInfo } from '../../lib/request-info.js';
import type { MailMessage } from '../../mail/mailer.js';
import { renderTemplateMail } from '../../mail/template-mail.js';
import { appLink, MAIL_LINK_PATHS } from '../../mail/account-mail.js';
import { changedFields, recordChange } from '../changes/record-change.js';
import { requireProjectRole } from '../realms/project-access.js';
import { mailLinkBaseOf } from './projects.service.js';
import { findProjectSettings, listConnectionStates, saveProjectSettings } from './project-settings.repo.js';
import { mailTemplatesOf, projectBrand, projectPolicy } from './realm-policy.js';
import { mergeOverrides, OVERRIDE_MESSAGES, OVERRIDES_MAX_BYTES, parseStoredOverrides } from '../../../shared/i18n/overrides.js';
import { effectiveSignInMethods, parseSignInMethods } from '../realms/sign-in-methods.js';
import { hostedPagesUrlOf } from './project-urls.js';
import type { Db } from '../../db/connect.js';

/** The project's configured connections (their ids in sign_in_methods.connections), and which of them are switched on. */
async function configuredConnections(db: Db, projectId: string): Promise<{ ids: string[]; live: string[] }> {
  const rows = await listConnectionStates(db, projectId);
  return { ids: rows.map((row) => row.provider), live: rows.filter((row) => row.enabled === 1).map((row) => row.provider) };
}

type Templates = ProjectSettings['mail_templates'];

/** The answer: every rule as it applies now (the platform's where the project set none); never the captcha secret. */
function toSettings(deps: Deps, project: ProjectRow, row: ProjectSettingsRow | undefined, connections: readonly string[]): ProjectSettings {
  const projectId = project.id;
  const policy = projectPolicy(deps.platform.policy, project, row, { own: null, fallback: deps.captcha });
  const stored = mailTemplatesOf(row?.mail_templates);
  return {
    project_id: projectId,
    password_min_length: policy.passwordMinLength,
    password_check_breached: policy.checkCommonPasswords,
    access_token_ttl_s: policy.accessTokenTtlS,
    refresh_token_ttl_s: policy.refreshTokenTtlS,
    captcha_provider: row?.captcha_provider ?? 'platform',
    captcha_site_key: row?.captcha_site_key ?? null,
    captcha_secret_set: Boolean(row?.captcha_secret),
    vpn_policy: policy.blockVpn ? 'block' : 'allow',
    allow_unverified_sign_in: policy.allowUnverifiedSignIn,
    mail_sender_name: row?.mail_sender_name ?? null,
    mail_product_name: row?.mail_product_name ?? null,
    mail_accent_color: row?.mail_accent_color ?? null,
    mail_secured_by: policy.mail.securedBy,
    mail_templates: Object.fromEntries(MAIL_TEMPLATE_KINDS.map((kind) => [kind, stored[kind] ?? null])) as Templates,
    string_overrides: policy.mail.stringOverrides as ProjectSettings['string_overrides'],
    sign_in_methods: effectiveSignInMethods(policy.signInMethods, connections),
    updated_at: row?.updated_at ?? null,
  };
}

/** What the audit log keeps of a change: every setting but the secret, of which only whether one is set. */
function audited(settings: ProjectSettings): Record<string, unknown> {
  const { project_id: _id, updated_at: _at, ...rest } = settings;
  return rest;
}

export async function getProjectSettings(deps: Deps, user: UserRow, projectId: string): Promise<ProjectSettings> {
  const project = await requireProjectRole(deps, user, projectId, 'viewer');
  return toSettings(deps, project, await findProjectSettings(deps.db, projectId), (await configuredConnections(deps.db, projectId)).ids);
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
    const connections = await configuredConnections(tx.db, projectId);
    const before = toSettings(deps, project, row, connections.ids);
    const next = nextRow(deps, projectId, row, before, input);
    next.sign_in_methods = nextSignInMethods(row, input, connections);
    next.updated_at = isoNow(deps.clock);
    await saveProjectSettings(tx.db, next);
    const updated = toSettings(deps, project, next, connections.ids);
    const changes = changedFields(audited(before), audited(updated));
    if (input.captcha_secret) changes.after.captcha_secret = '(changed)';
    if (Object.keys(changes.after).length > 0) {
      await recordChange(tx, { user, info }, { projectId, action: 'settings.updated', target: { type: 'project', id: projectId, label: project.name }, ...changes });
    }
    return updated;
  });
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
  const ownWidget = isOwnCaptcha(provider);
  const siteKey = ownWidget ? pick(input.captcha_site_key, current.captcha_site_key ?? '') || null : null;
  const secret = ownWidget ? (input.captcha_secret ? deps.secretBox.seal(input.captcha_secret) : (row?.captcha_secret ?? null)) : null;
  if (ownWidget && (!siteKey || !secret)) throw new AppError('UNPROCESSABLE_CONTENT', SETTINGS_MESSAGES.captchaKeysRequired);

  const templates: Templates = { ...current.mail_templates };
  for (const kind of MAIL_TEMPLATE_KINDS) {
    const template = input.mail_templates?.[kind];
    if (template === undefined) continue;
    // Without its link a verification or reset mail is useless.
    if (template && kind === 'email_code' && !mentionsPlaceholder(template, 'code')) throw new AppError('UNPROCESSABLE_CONTENT', SETTINGS_MESSAGES.codeRequired);
    if (template && kind !== 'password_changed' && kind !== 'email_code' && !mentionsPlaceholder(template, 'link')) throw new AppError('UNPROCESSABLE_CONTENT', SETTINGS_MESSAGES.linkRequired);
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
    captcha_provider: provider === 'platform' ? null : provider,
    captcha_site_key: siteKey,
    captcha_secret: secret,
    vpn_policy: keep('vpn_policy', input.vpn_policy),
    allow_unverified_sign_in: keep('allow_unverified_sign_in', flag(input.allow_unverified_sign_in)),
    mail_sender_name: keep('mail_sender_name', input.mail_sender_name),
    mail_product_name: keep('mail_product_name', input.mail_product_name),
    mail_accent_color: keep('mail_accent_color', input.mail_accent_color),
    mail_secured_by: keep('mail_secured_by', flag(input.mail_secured_by)),
    mail_templates: JSON.stringify(storedTemplates),
    string_overrides: nextOverrides(row, input),
    organizations_self_service: row?.organizations_self_service ?? null,
    max_organizations_per_user: row?.max_organizations_per_user ?? null,
    custom_claims: row?.custom_claims ?? null,
    sign_in_methods: row?.sign_in_methods ?? null,
    updated_at: row?.updated_at ?? '',
  };
}

/**
 * The stored choice of first factors with the input's over it: only connections the project has may be
 * named, and at least one way in must stay (a built-in method, or a switched-on connection left on).
 */
function nextSignInMethods(row: ProjectSettingsRow | undefined, input: z.output<typeof UpdateProjectSettingsInputSchema>, connections: { ids: string[]; live: string[] }): string | null {
  const stored = row?.sign_in_methods ?? null;
  const change = input.sign_in_methods;
  if (!change) return stored;
  const unknown = Object.keys(change.connections ?? {}).filter((id) => !connections.ids.includes(id));
  if (unknown.length > 0) throw new AppError('UNPROCESSABLE_CONTENT', SETTINGS_MESSAGES.unknownConnection);
  const current = parseSignInMethods(stored);
  const { connections: connectionChanges, ...methodChanges } = change;
  const defined = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).filter(([, on]) => on !== undefined));
  const merged = { methods: { ...current.methods, ...defined(methodChanges) }, connections: { ...current.connections, ...connectionChanges } };
  const effective = effectiveSignInMethods(merged, connections.live);
  const anyOn = SIGN_IN_METHODS.some((method) => effective[method]) || Object.values(effective.connections).some(Boolean);
  if (!anyOn) throw new AppError('UNPROCESSABLE_CONTENT', SETTINGS_MESSAGES.noSignInMethod);
  return JSON.stringify(merged);
}

/** The stored overrides with the input's merged in, within the size cap. */
function nextOverrides(row: ProjectSettingsRow | undefined, input: z.output<typeof UpdateProjectSettingsInputSchema>): string {
  const stored = row?.string_overrides ?? '{}';
  if (!input.string_overrides) return stored;
  const json = JSON.stringify(mergeOverrides(parseStoredOverrides(stored), input.string_overrides));
  if (Buffer.byteLength(json) > OVERRIDES_MAX_BYTES) throw new AppError('UNPROCESSABLE_CONTENT', OVERRIDE_MESSAGES.tooBig);
  return json;
}

/** The token a preview's link carries in place of the one a real mail would. */
export const SAMPLE_TOKEN = 'sample-token';
/** The code a preview of the e-mail code mail shows. */
export const SAMPLE_CODE = '123456';

/**
 * One mail exactly as `send` would send it to `to`: the project's saved brand with the input's unsaved
 * names, colour, "Secured by" choice, template and language over it, the same rendering (template-mail.ts) and
 * the same link target (mailLinkBaseOf), with SAMPLE_TOKEN for the token.
 */
function composeMail(deps: Deps, project: ProjectRow, row: ProjectSettingsRow | undefined, input: z.output<typeof MailPreviewInputSchema>, to: string): MailMessage {
  const saved = projectBrand(project, row);
  const defaults = projectBrand(project, undefined);
  const brand = {
    ...saved,
    productName: input.mail_product_name === undefined ? saved.productName : (input.mail_product_name ?? defaults.productName),
    senderName: input.mail_sender_name === undefined ? saved.senderName : (input.mail_sender_name ?? defaults.senderName),
    accentColor: input.mail_accent_color === undefined ? saved.accentColor : (input.mail_accent_color ?? defaults.accentColor),
    securedBy: input.mail_secured_by ?? saved.securedBy,
    locale: input.locale ?? saved.locale,
  };
  const template = (input.template === undefined ? brand.templates[input.kind] : input.template) ?? builtInMailTemplate(input.kind, brand.locale, brand.stringOverrides);
  const token = input.kind === 'password_changed' || input.kind === 'email_code' ? undefined : SAMPLE_TOKEN;
  // A magic link always opens the hosted pages (they finish the sign-in), whatever the project's website.
  const linkBase = input.kind === 'magic_link' ? hostedPagesUrlOf(deps.config, project.project_key) : mailLinkBaseOf(deps.config, project);
  const link = appLink({ linkBase }, MAIL_LINK_PATHS[input.kind], token);
  return renderTemplateMail(input.kind, template, to, link, brand, [], input.kind === 'email_code' ? SAMPLE_CODE : '');
}

/** One of the project's mails as its end users get it, rendered for the caller's own address (what "Send test mail" sends). */
export async function previewProjectMail(deps: Deps, user: UserRow, projectId: string, input: z.output<typeof MailPreviewInputSchema>): Promise<MailPreview> {
  const project = await requireProjectRole(deps, user, projectId, 'admin');
  const mail = composeMail(deps, project, await findProjectSettings(deps.db, projectId), input, user.email);
  return { from_name: mail.fromName ?? deps.config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html };
}

/** Sends the previewed mail to the caller's own address (a few a minute per developer). */
export async function sendTestMail(deps: Deps, user: UserRow, projectId: string, input: z.output<typeof MailPreviewInputSchema>): Promise<{ message: string }> {
  const project = await requireProjectRole(deps, user, projectId, 'admin');
  await deps.limiters.mailTestsPerUser.consume(user.id);
  const mail = composeMail(deps, project, await findProjectSettings(deps.db, projectId), input, user.email);
  await queueMail(deps, { kind: `test:${input.kind}`, message: mail, projectId: null, userId: user.id });
  return { message: `${SETTINGS_MESSAGES.testMailSent} ${user.email}` };
}
