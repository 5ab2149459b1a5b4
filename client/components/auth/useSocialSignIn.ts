import { useEffect, useState, type RefObject } from 'react';
import type { SignInProvider, SocialProvider } from '../../../shared/schemas/social';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { browser } from '../../lib/navigation';
import type { CaptchaHandle } from '../CaptchaField';

/**
 * Starting a sign-in with a provider from a sign-in or sign-up page: the page's captcha token and the
 * device fingerprint (as the password form sends them) go into the start URL, and the browser leaves.
 */
export function useSocialSignIn(captcha: RefObject<CaptchaHandle | null>, startUrl: (provider: SocialProvider, params: { captcha_token: string; device_fingerprint: string }) => string) {
  const [pending, setPending] = useState<string | null>(null);

  // Back from the provider through the browser's history (a page restored from its cache): the buttons work again.
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => event.persisted && setPending(null);
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);

  const start = async (provider: SignInProvider) => {
    setPending(provider.id);
    try {
      const [captchaToken, fingerprint] = await Promise.all([captcha.current?.token() ?? Promise.resolve(''), getDeviceFingerprint()]);
      browser.assign(startUrl(provider.id, { captcha_token: captchaToken, device_fingerprint: fingerprint }));
    } catch {
      setPending(null);
    }
  };
  return { pending, start: (provider: SignInProvider) => void start(provider) };
}
