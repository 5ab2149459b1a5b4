import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../../../shared/constants';
import {
  ACCESS_TOKEN_TTL_RANGE_S,
  PROJECT_CAPTCHA_PROVIDERS,
  isOwnCaptcha,
  PROJECT_PASSWORD_MIN_LENGTH_MAX,
  REFRESH_TOKEN_TTL_RANGE_S,
  SETTINGS_MESSAGES,
  VPN_POLICIES,
  type ProjectSettings,
  type UpdateProjectSettingsInput,
} from '../../../shared/schemas/project-settings';

/** Lifetimes are edited in minutes; the API takes seconds. */
const minutes = (range: { min: number; max: number }, message: string) =>
  z
    .number({ error: message })
    .int({ error: message })
    .min(range.min / 60, { error: message })
    .max(range.max / 60, { error: message });

const MIN_LENGTH_RANGE = `Between ${PASSWORD_MIN_LENGTH} and ${PROJECT_PASSWORD_MIN_LENGTH_MAX} characters`;

export const RulesFormSchema = z
  .object({
    passwordMinLength: z
      .number({ error: MIN_LENGTH_RANGE })
      .int({ error: MIN_LENGTH_RANGE })
      .min(PASSWORD_MIN_LENGTH, { error: MIN_LENGTH_RANGE })
      .max(PROJECT_PASSWORD_MIN_LENGTH_MAX, { error: MIN_LENGTH_RANGE }),
    checkBreached: z.boolean(),
    accessMinutes: minutes(ACCESS_TOKEN_TTL_RANGE_S, `Between ${ACCESS_TOKEN_TTL_RANGE_S.min / 60} and ${ACCESS_TOKEN_TTL_RANGE_S.max / 60} minutes`),
    refreshMinutes: minutes(REFRESH_TOKEN_TTL_RANGE_S, `Between ${REFRESH_TOKEN_TTL_RANGE_S.min / 60} and ${REFRESH_TOKEN_TTL_RANGE_S.max / 60} minutes`),
    captchaProvider: z.enum(PROJECT_CAPTCHA_PROVIDERS),
    captchaSiteKey: z.string().trim().max(200),
    captchaSecret: z.string().trim().max(500),
    captchaSecretSet: z.boolean(),
    vpnPolicy: z.enum(VPN_POLICIES),
    allowUnverified: z.boolean(),
  })
  .refine((values) => values.refreshMinutes >= values.accessMinutes, { error: SETTINGS_MESSAGES.refreshShorterThanAccess, path: ['refreshMinutes'] })
  .refine((values) => !isOwnCaptcha(values.captchaProvider) || values.captchaSiteKey !== '', { error: 'The site key is required', path: ['captchaSiteKey'] })
  .refine((values) => !isOwnCaptcha(values.captchaProvider) || values.captchaSecretSet || values.captchaSecret !== '', { error: 'The secret is required', path: ['captchaSecret'] });

export type RulesValues = z.input<typeof RulesFormSchema>;

export const rulesOf = (settings: ProjectSettings): RulesValues => ({
  passwordMinLength: settings.password_min_length,
  checkBreached: settings.password_check_breached,
  accessMinutes: Math.round(settings.access_token_ttl_s / 60),
  refreshMinutes: Math.round(settings.refresh_token_ttl_s / 60),
  captchaProvider: settings.captcha_provider,
  captchaSiteKey: settings.captcha_site_key ?? '',
  captchaSecret: '',
  captchaSecretSet: settings.captcha_secret_set,
  vpnPolicy: settings.vpn_policy,
  allowUnverified: settings.allow_unverified_sign_in,
});

/** Only what changed goes to the server, so the rules left alone keep following the platform's. */
export function rulesChanges(before: RulesValues, after: RulesValues): UpdateProjectSettingsInput {
  const changes: UpdateProjectSettingsInput = {};
  if (after.passwordMinLength !== before.passwordMinLength) changes.password_min_length = after.passwordMinLength;
  if (after.checkBreached !== before.checkBreached) changes.password_check_breached = after.checkBreached;
  if (after.accessMinutes !== before.accessMinutes) changes.access_token_ttl_s = after.accessMinutes * 60;
  if (after.refreshMinutes !== before.refreshMinutes) changes.refresh_token_ttl_s = after.refreshMinutes * 60;
  if (after.captchaProvider !== before.captchaProvider) changes.captcha_provider = after.captchaProvider;
  if (after.captchaProvider !== 'none') {
    if (after.captchaSiteKey !== before.captchaSiteKey) changes.captcha_site_key = after.captchaSiteKey;
    if (after.captchaSecret) changes.captcha_secret = after.captchaSecret;
  }
  if (after.vpnPolicy !== before.vpnPolicy) changes.vpn_policy = after.vpnPolicy;
  if (after.allowUnverified !== before.allowUnverified) changes.allow_unverified_sign_in = after.allowUnverified;
  return changes;
}

/** 90 → "1 h 30 min", 10080 → "7 days". */
export function formatMinutes(total: number): string {
  if (!Number.isFinite(total) || total <= 0) return '';
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const mins = total % 60;
  return [days && `${days} day${days === 1 ? '' : 's'}`, hours && `${hours} h`, mins && `${mins} min`].filter(Boolean).join(' ');
}
