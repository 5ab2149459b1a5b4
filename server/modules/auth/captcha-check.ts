import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { RequestInfo } from '../../lib/request-info.js';

export const CAPTCHA_FAILED = 'Captcha verification failed';

/** With a provider configured, the call needs a valid, unused captcha token; without one it passes. */
export async function requireCaptcha(deps: Deps, token: string, request: RequestInfo): Promise<void> {
  if (!deps.captcha.config().enabled) return;
  if (!(await deps.captcha.verify(token, request.ip))) throw new AppError('BAD_REQUEST', CAPTCHA_FAILED);
}
