import { useEffect, useState } from 'react';
import { EmailSchema } from '../../shared/schemas/common';
import { SSO_MESSAGES, type SsoDiscovery } from '../../shared/schemas/sso';
import { ApiError } from '../lib/api-client';
import { getDeviceFingerprint } from '../lib/fingerprint';
import { browser } from '../lib/navigation';
import { useHosted } from './HostedContext';

/** The password refusal of an enforced connection's domain (403): the page offers the IdP instead. */
export function isSsoRequired(failure: unknown): boolean {
  return failure instanceof ApiError && failure.status === 403 && failure.detail === SSO_MESSAGES.enforced;
}

/**
 * Home-realm discovery on the hosted sign-in and sign-up pages: once an address is typed, whether its
 * domain signs in through its organization's IdP (asked once per address; the answer depends on the
 * domain only), and the navigation that starts that sign-in and comes back to `returnTo`.
 */
export function useSsoDiscovery(returnTo: string) {
  const { api, paths } = useHosted();
  const [found, setFound] = useState<{ email: string; answer: SsoDiscovery } | null>(null);
  const [leaving, setLeaving] = useState(false);

  // Back from the IdP through the browser's history (a page restored from its cache): the button works again.
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => event.persisted && setLeaving(false);
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);

  const normalized = (email: string) => {
    const parsed = EmailSchema.safeParse(email);
    return parsed.success ? parsed.data : null;
  };

  /** Asks the server about the address (a malformed one, or a failed call, routes nowhere). */
  const discover = async (email: string): Promise<SsoDiscovery | null> => {
    const address = normalized(email);
    if (!address) return null;
    if (found?.email === address) return found.answer;
    try {
      const answer = await api.discoverSso(address);
      setFound({ email: address, answer });
      return answer;
    } catch {
      return null;
    }
  };

  /** The connection the address routes to, once discovery said so. */
  const routed = (email: string): SsoDiscovery | null => {
    const address = normalized(email);
    return address && found?.email === address && found.answer.sso ? found.answer : null;
  };

  const start = async (email: string) => {
    setLeaving(true);
    const fingerprint = await getDeviceFingerprint().catch(() => '');
    browser.assign(paths.ssoStart({ email: normalized(email) ?? email.trim(), return_to: returnTo, device_fingerprint: fingerprint }));
  };

  return { discover, routed, start, leaving };
}
