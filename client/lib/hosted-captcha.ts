/**
 * Cloudflare Turnstile, hCaptcha and Google reCAPTCHA (v2) share one explicit-render API: load the
 * provider's script, `render(container, { sitekey, callback, … })`, `reset(widgetId)`. The server's CSP
 * admits exactly the configured provider's origins (server/modules/captcha/csp.ts).
 */
export type HostedProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

export interface HostedCaptchaApi {
  render(container: HTMLElement, options: Record<string, unknown>): string | number;
  reset(widgetId?: string | number): void;
}

const PROVIDERS: Record<HostedProvider, { script: string; global: 'turnstile' | 'hcaptcha' | 'grecaptcha' }> = {
  turnstile: { script: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit', global: 'turnstile' },
  hcaptcha: { script: 'https://js.hcaptcha.com/1/api.js?render=explicit', global: 'hcaptcha' },
  recaptcha: { script: 'https://www.google.com/recaptcha/api.js?render=explicit', global: 'grecaptcha' },
};

const loading = new Map<HostedProvider, Promise<HostedCaptchaApi>>();

function apiOf(provider: HostedProvider): HostedCaptchaApi | undefined {
  const api = (window as unknown as Record<string, HostedCaptchaApi | undefined>)[PROVIDERS[provider].global];
  return api && typeof api.render === 'function' ? api : undefined;
}

/** Loads the provider's script once and resolves with its API when it is ready to render. */
export function loadHostedCaptcha(provider: HostedProvider): Promise<HostedCaptchaApi> {
  const ready = apiOf(provider);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(provider);
  if (!pending) {
    pending = new Promise<HostedCaptchaApi>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = PROVIDERS[provider].script;
      script.async = true;
      script.onerror = () => {
        loading.delete(provider);
        reject(new Error(`could not load ${provider}`));
      };
      // The global appears with the script; reCAPTCHA fills in render() a moment later.
      script.onload = () => {
        const started = Date.now();
        const poll = () => {
          const api = apiOf(provider);
          if (api) resolve(api);
          else if (Date.now() - started > 10_000) reject(new Error(`${provider} did not start`));
          else setTimeout(poll, 50);
        };
        poll();
      };
      document.head.appendChild(script);
    });
    loading.set(provider, pending);
  }
  return pending;
}

export function scriptUrlOf(provider: HostedProvider): string {
  return PROVIDERS[provider].script;
}
