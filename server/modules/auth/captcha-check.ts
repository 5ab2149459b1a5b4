import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { RequestInfo } from '../../lib/request-info.js';
import type { Realm } from '../realms/realm.js';

export const CAPTCHA_FAILED = 'Captcha verification failed';

/**
 * With a provider in the realm's policy, the call needs a valid, unused captcha token; without one it
 * passes. The platform's captcha is its own accounts' (and its hosted pages', unless a project set
 * one); a project's public API asks only for the project's own.
 */
export async function requireCaptcha(_deps: Deps, realm: Realm, token: string, request: RequestInfo): Promise<void> {
  const { captcha } = realm.policy;
  if (!captcha.config().enabled) return;
  if (!(await captcha.verify(token, request.ip))) throw new AppError('BAD_REQUEST', CAPTCHA_FAILED);
}
