import type { CaptchaProvider } from './captcha.js';

/** Third-party origins a hosted captcha widget needs in the Content-Security-Policy; none for ALTCHA or none. */
export function captchaCspSources(provider: CaptchaProvider): { script: string[]; frame: string[]; connect: string[]; style: string[] } {
  switch (provider) {
    case 'turnstile':
      return { script: ['https://challenges.cloudflare.com'], frame: ['https://challenges.cloudflare.com'], connect: [], style: [] };
    case 'hcaptcha':
      return {
        script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
        frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
        connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
        style: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      };
    case 'recaptcha':
      return {
        script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
        frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
        connect: [],
        style: [],
      };
    default:
      return { script: [], frame: [], connect: [], style: [] };
  }
}
