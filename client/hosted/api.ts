import type { z } from 'zod';
import type {
  CaptchaConfigSchema,
  LogInResponseSchema,
  SignUpInput,
} from '../../shared/schemas/auth';
import type { HostedProject, LinkAnswer } from '../../shared/schemas/hosted';
import type { MfaChallenge, RecoveryCodes, TotpSetup } from '../../shared/schemas/mfa';
import type { Passkey, PasskeyLoginInput, WebAuthnOptions } from '../../shared/schemas/passkeys';
import type { OwnSession } from '../../shared/schemas/sessions';
import type { User } from '../../shared/schemas/user';
import type { IdentitiesSchema, SignInProvider } from '../../shared/schemas/social';
import type { StepUpAnswer, StepUpInput, StepUpMethod, StepUpStatus } from '../../shared/schemas/step-up';
import { stepUpMethodsIn } from '../lib/rest';

export type SignedIn = z.infer<typeof LogInResponseSchema>;
export type SignInAnswer = SignedIn | MfaChallenge;
export type CaptchaConfig = z.infer<typeof CaptchaConfigSchema>;
type PasskeyAnswer = PasskeyLoginInput['response'];
type Message = { message: string };
export type Identities = z.infer<typeof IdentitiesSchema>;
/** The app's sign-in a form serves, which the mails it asks for carry along (see useContinuation). */
export interface Continuation {
  interaction: string | null;
  return_to: string | null;
}

/** A refused call: the server's `{"detail": …}` and its status (and Retry-After on 429, the proofs a step-up refusal asks for). */
export class HostedApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly retryAfterS: number | null = null,
    readonly stepUpMethods: StepUpMethod[] | null = null,
  ) {
    super(detail);
    this.name = 'HostedApiError';
  }
}

/** The text to show for a failed call: the server's detail, else the screen's fallback (network failures, 500s). */
export function hostedErrorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof HostedApiError) || error.status >= 500 || !error.detail) return fallback;
  return error.detail;
}

async function errorOf(response: Response): Promise<HostedApiError> {
  let detail = '';
  let stepUp: StepUpMethod[] | null = null;
  try {
    const body = (await response.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
    stepUp = stepUpMethodsIn(body);
  } catch {
    /* not JSON: the screen's fallback text */
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new HostedApiError(response.status, detail, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null, stepUp);
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The hosted pages' browser API (/hosted/{project_key}/api/v1): same origin, tokens only in the HttpOnly
 * cookies the server sets for the project's path. State-changing calls carry JSON (the server's CSRF guard
 * asks for it). A signed-in call that answers 401 refreshes the cookie pair once (concurrent failures share
 * one refresh) and is retried once, unless the 401 asks for a step-up (the session is fine: the user must
 * prove who they are, see StepUpProvider). Every call asks in the pages' language (`locale`), which
 * the mails it sends follow when the user has saved none.
 */
export function createHostedApi(projectKey: string, locale: () => string = () => 'en') {
  const base = `/hosted/${encodeURIComponent(projectKey)}/api/v1`;
  let refreshing: Promise<boolean> | null = null;

  const send = (method: Method, path: string, body?: unknown) => {
    const withBody = method !== 'GET' && method !== 'DELETE';
    return fetch(`${base}${path}`, {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        'accept-language': locale(),
        ...(withBody ? { 'content-type': 'application/json' } : {}),
      },
      body: withBody ? JSON.stringify(body ?? {}) : undefined,
    });
  };

  const refresh = (): Promise<boolean> => {
    refreshing ??= send('POST', '/auth/refresh', {})
      .then((response) => response.ok, () => false)
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };

  /** An anonymous call: a 401 is an answer (wrong password, refused passkey), not an expired session. */
  async function call<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const response = await send(method, path, body);
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as T;
  }

  /** A call that needs the session: one refresh and one retry on a 401 that is not a step-up refusal. */
  async function session<T>(method: Method, path: string, body?: unknown): Promise<T> {
    let response = await send(method, path, body);
    if (response.status === 401) {
      const refused = await errorOf(response);
      if (refused.stepUpMethods || !(await refresh())) throw refused;
      response = await send(method, path, body);
    }
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as T;
  }

  const id = encodeURIComponent;

  return {
    project: () => call<HostedProject>('GET', '/project'),
    /** The project's own captcha when it set one, else the platform's. */
    captchaConfig: () => call<CaptchaConfig>('GET', '/captcha/config'),

    signUp: (input: Pick<SignUpInput, 'email' | 'password' | 'first_name' | 'last_name' | 'captcha_token' | 'device_fingerprint'>, continuation: Continuation) =>
      call<Message>('POST', '/auth/signup', { ...input, ...continuation }),
    logIn: (input: { email: string; password: string; captcha_token: string; device_fingerprint: string }) => call<SignInAnswer>('POST', '/auth/login', input),
    verifyMfa: (input: { mfa_token: string; code: string } | { mfa_token: string; passkey_response: PasskeyAnswer }) =>
      call<SignedIn>('POST', '/auth/mfa/verify', input),
    mfaPasskeyOptions: (mfaToken: string) => call<WebAuthnOptions>('POST', '/auth/mfa/passkey/options', { mfa_token: mfaToken }),
    passkeyLoginOptions: () => call<WebAuthnOptions>('POST', '/auth/passkeys/login/options', {}),
    passkeyLogIn: (input: { response: PasskeyAnswer; device_fingerprint: string }) => call<SignedIn>('POST', '/auth/passkeys/login/verify', input),
    logOut: () => call<Message>('POST', '/auth/logout', {}),
    signInProviders: () => call<{ providers: SignInProvider[] }>('GET', '/auth/oauth/providers'),
    confirmIdentityLink: (token: string) => call<Message & { return_to: string | null }>('POST', '/auth/oauth/link', { token }),

    verifyEmail: (token: string, deviceFingerprint: string | null) => call<LinkAnswer>('POST', '/auth/verify-email', { token, device_fingerprint: deviceFingerprint }),
    resendVerification: (email: string, captchaToken: string, continuation?: Continuation) =>
      call<Message>('POST', '/auth/resend-verification', { email, captcha_token: captchaToken, ...continuation }),
    forgotPassword: (email: string, captchaToken: string, continuation?: Continuation) =>
      call<Message>('POST', '/auth/forgot-password', { email, captcha_token: captchaToken, ...continuation }),
    resetPassword: (input: { token: string; newPassword: string; keepSignInMethods: boolean; deviceFingerprint: string | null }) =>
      call<LinkAnswer>('POST', '/auth/reset-password', {
        token: input.token,
        new_password: input.newPassword,
        keep_sign_in_methods: input.keepSignInMethods,
        device_fingerprint: input.deviceFingerprint,
      }),
    confirmEmailChange: (token: string) => call<Message>('POST', '/auth/confirm-email-change', { token }),

    profile: () => session<User>('GET', '/profile'),
    updateProfile: (input: { first_name?: string | null; last_name?: string | null; locale?: string | null }) => session<User>('PUT', '/profile', input),
    changePassword: (currentPassword: string, newPassword: string) =>
      session<Message>('POST', '/auth/change-password', { current_password: currentPassword, new_password: newPassword }),
    /** Without the password, the server asks for a step-up (HostedStepUp). */
    changeEmail: (newEmail: string, password?: string) => session<Message>('POST', '/auth/change-email', { new_email: newEmail, ...(password ? { password } : {}) }),
    deleteAccount: (password?: string) => session<Message>('POST', '/auth/delete-account', password ? { password } : {}),

    sessions: () => session<{ sessions: OwnSession[] }>('GET', '/auth/sessions'),
    revokeSession: (sessionId: string) => session<Message>('DELETE', `/auth/sessions/${id(sessionId)}`),
    revokeOtherSessions: () => session<Message & { revoked: number }>('POST', '/auth/sessions/revoke-others', {}),

    stepUpStatus: () => session<StepUpStatus>('GET', '/auth/step-up'),
    stepUp: (proof: StepUpInput) => session<StepUpAnswer>('POST', '/auth/step-up', proof),
    stepUpPasskeyOptions: () => session<WebAuthnOptions>('POST', '/auth/step-up/passkey/options', {}),

    setUpTotp: () => session<TotpSetup>('POST', '/auth/mfa/totp/setup', {}),
    confirmTotp: (code: string) => session<RecoveryCodes>('POST', '/auth/mfa/totp/confirm', { code }),
    disableMfa: (password: string, code: string) => session<Message>('POST', '/auth/mfa/disable', { password, code }),
    regenerateRecoveryCodes: (password: string) => session<RecoveryCodes>('POST', '/auth/mfa/recovery-codes', { password }),

    passkeys: () => session<{ passkeys: Passkey[] }>('GET', '/auth/passkeys'),
    passkeyRegistrationOptions: () => session<WebAuthnOptions>('POST', '/auth/passkeys/register/options', {}),
    registerPasskey: (response: PasskeyAnswer) => session<{ passkey: Passkey }>('POST', '/auth/passkeys/register/verify', { response }),
    renamePasskey: (passkeyId: string, name: string) => session<Passkey>('PATCH', `/auth/passkeys/${id(passkeyId)}`, { name }),
    removePasskey: (passkeyId: string) => session<Message>('DELETE', `/auth/passkeys/${id(passkeyId)}`),

    identities: () => session<Identities>('GET', '/auth/identities'),
    removeIdentity: (identityId: string) => session<Message>('DELETE', `/auth/identities/${id(identityId)}`),
  };
}

export type HostedApi = ReturnType<typeof createHostedApi>;
