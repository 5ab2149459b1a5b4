import type { AltchaWidgetElement } from 'altcha';
import { trpc } from './trpc';

/**
 * Captcha on the sign-in, signup and forgot-password forms. The server's `captcha.config` says which
 * provider is on; the forms send the provider's token as `captcha_token` ('' when none is configured).
 */
export type CaptchaProvider = 'none' | 'altcha' | 'turnstile' | 'hcaptcha' | 'recaptcha';

/** ALTCHA's proof-of-work challenge, served by this server (same origin, so CSP connect-src 'self'). */
export const ALTCHA_CHALLENGE_URL = '/api/v1/captcha/challenge';


export const PROVIDER_NAMES: Record<CaptchaProvider, string> = {
  none: 'None',
  altcha: 'ALTCHA',
  turnstile: 'Cloudflare Turnstile',
  hcaptcha: 'hCaptcha',
  recaptcha: 'Google reCAPTCHA',
};

function toProvider(value: string | undefined): CaptchaProvider {
  return value === 'altcha' || value === 'turnstile' || value === 'hcaptcha' || value === 'recaptcha' ? value : 'none';
}

/** The provider a captcha config query names: null while it loads, 'none' when it is off or cannot be read (the server then decides). */
export function captchaProviderOf(config: { isPending: boolean; data?: { enabled: boolean; provider: string } }): CaptchaProvider | null {
  if (config.isPending) return null;
  return config.data?.enabled ? toProvider(config.data.provider) : 'none';
}

/** The platform's captcha provider (see captchaProviderOf) and its public site key. */
export function useCaptchaConfig(): { provider: CaptchaProvider | null; siteKey: string } {
  const config = trpc.captcha.config.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
  return { provider: captchaProviderOf(config), siteKey: config.data?.site_key ?? '' };
}

let altchaLoading: Promise<void> | null = null;

/** Loads the ALTCHA web component once (its own chunk, so visitors without a captcha never download it). */
export function loadAltcha(): Promise<void> {
  altchaLoading ??= import('altcha').then(
    () => undefined,
    (error: unknown) => {
      altchaLoading = null;
      throw error;
    },
  );
  return altchaLoading;
}

export type AltchaState = 'unverified' | 'verifying' | 'verified' | 'expired' | 'error' | 'code';

/** What the widget's `statechange` and `verified` events carry. */
export interface AltchaEventDetail {
  state?: AltchaState;
  payload?: string | null;
}

/**
 * The token of an ALTCHA widget: its solved payload, solving now if it has not been solved yet (or waiting
 * for a solve in progress). '' when it cannot be solved; the server then refuses with its own message.
 */
export async function altchaToken(widget: AltchaWidgetElement | null, solved: string): Promise<string> {
  if (solved) return solved;
  if (!widget || typeof widget.verify !== 'function') return '';
  try {
    if (widget.getState() === 'verifying') {
      return await new Promise<string>((resolve) => {
        const onChange = (event: Event) => {
          const detail = (event as CustomEvent<AltchaEventDetail>).detail ?? {};
          if (detail.state === 'verifying') return;
          widget.removeEventListener('statechange', onChange);
          resolve(detail.state === 'verified' ? (detail.payload ?? '') : '');
        };
        widget.addEventListener('statechange', onChange);
      });
    }
    return (await widget.verify())?.payload ?? '';
  } catch {
    return '';
  }
}
