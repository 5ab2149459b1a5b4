import type { z } from 'zod';
import { safeRedirectPath } from '../../../shared/safe-redirect.js';
import type { ContinuationInputSchema, LinkNext } from '../../../shared/schemas/hosted.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { constantTimeEqual } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { logInWithMailedLink, type LogInResult } from '../auth/auth.service.js';
import { NO_CONTINUATION, type LinkContinuation, type ProvenLink } from '../auth/link-continuation.js';
import { interactionIsWaiting, type Provider } from '../oidc/oidc.service.js';
import { hostedPagesUrlOf } from '../projects/project-urls.js';
import { findUser } from '../users/users.service.js';

/**
 * What a mail asked for on the hosted pages carries in its link: the app's sign-in the form served
 * (a waiting OpenID Connect request of this project, or a page of its hosted pages as checked by
 * shared/safe-redirect.ts) and the asking browser's binding (`bind` gives it one). Anything else is
 * dropped, and a mail that continues nothing binds nothing.
 */
export async function continuationFrom(
  deps: Deps,
  provider: Provider,
  input: z.output<typeof ContinuationInputSchema>,
  bind: () => string,
): Promise<LinkContinuation> {
  const interactionId = input.interaction && (await interactionIsWaiting(deps, provider, input.interaction)) ? input.interaction : null;
  const pages = new URL(hostedPagesUrlOf(deps.config, provider.project.project_key));
  const returnTo = safeRedirectPath(input.return_to, pages.origin, `${pages.pathname}/`);
  if (!interactionId && !returnTo) return NO_CONTINUATION;
  return { interactionId, returnTo, flowBinding: bind() };
}

export interface LinkOutcome {
  next: LinkNext | null;
  /** Set when the link signed the user in: the transport puts them in the hosted cookies. */
  signedIn?: LogInResult;
}

/**
 * Once a mailed link has done its work, goes on with the app's sign-in it carries. In the browser that
 * asked for the mail, or right after a reset (whose page was just given the new password), the link
 * signs the user in (the second step first, for an account with two factors: the link proves the
 * mailbox, not the authenticator). In another browser it proves the address only: the password is
 * asked there, and the app's sign-in goes on after it. An app's sign-in that is over says so.
 */
export async function continueAfterLink(
  deps: Deps,
  provider: Provider,
  proven: ProvenLink,
  browser: { binding: string | null; deviceFingerprint: string | null },
  request: RequestInfo,
  options: { passwordJustSet: boolean },
): Promise<LinkOutcome> {
  const { interactionId, returnTo, flowBinding } = proven.continuation;
  if (!interactionId && !returnTo) return { next: null };
  if (interactionId && !(await interactionIsWaiting(deps, provider, interactionId))) return { next: { kind: 'expired' } };
  const continues = { interaction: interactionId, return_to: returnTo };
  const sameBrowser = flowBinding !== null && browser.binding !== null && constantTimeEqual(flowBinding, browser.binding);
  const askPassword = async (): Promise<LinkOutcome> => {
    const user = await findUser(deps, proven.userId);
    return user ? { next: { kind: 'sign_in', email: user.email, ...continues } } : { next: null };
  };
  if (!sameBrowser && !options.passwordJustSet) return askPassword();
  let answer: Awaited<ReturnType<typeof logInWithMailedLink>>;
  try {
    answer = await logInWithMailedLink(deps, provider.realm, proven.userId, browser.deviceFingerprint, request);
  } catch (error) {
    // The link did its work; the sign-in page says why a sign-in is refused (a limit, a blocked device…).
    if (error instanceof AppError) return askPassword();
    throw error;
  }
  if ('mfa_required' in answer) return { next: { kind: 'second_factor', challenge: answer, ...continues } };
  return { next: { kind: 'signed_in', ...continues }, signedIn: answer };
}
