import type { z } from 'zod';
import type {
  CaptchaConfigSchema,
  LogInResponseSchema,
  SignUpInput,
} from '../../shared/schemas/auth';
import type { DeviceRequest } from '../../shared/schemas/device-flow';
import type { HostedProject, LinkAnswer } from '../../shared/schemas/hosted';
import type { MagicLinkAnswer } from '../../shared/schemas/passwordless';
import type { MfaChallenge, RecoveryCodes, TotpSetup } from '../../shared/schemas/mfa';
import type { Passkey, PasskeyLoginInput, WebAuthnOptions } from '../../shared/schemas/passkeys';
import type { OwnSession } from '../../shared/schemas/sessions';
import type {
  AssignableRole,
  MyOrganization,
  MyOrganizationListSchema,
  OrganizationInvitation,
  OrganizationInvitationPreviewSchema,
  OrganizationMember,
} from '../../shared/schemas/organizations';
import type { User } from '../../shared/schemas/user';
import type { IdentitiesSchema, SignInProvider } from '../../shared/schemas/social';
import type { SsoDiscovery } from '../../shared/schemas/sso';
import type { StepUpAnswer, StepUpEmailCodeAnswer, StepUpInput, StepUpStatus } from '../../shared/schemas/step-up';
import { apiErrorMessage, createHostedApiClient } from '../lib/api-client';

export type SignedIn = z.infer<typeof LogInResponseSchema>;
export type SignInAnswer = SignedIn | MfaChallenge;
export type CaptchaConfig = z.infer<typeof CaptchaConfigSchema>;
type PasskeyAnswer = PasskeyLoginInput['response'];
type Message = { message: string };
export type Identities = z.infer<typeof IdentitiesSchema>;
export type MyOrganizations = z.infer<typeof MyOrganizationListSchema>;
export type InvitationPreview = z.infer<typeof OrganizationInvitationPreviewSchema>;
/** The app's sign-in a form serves, which the mails it asks for carry along (see useContinuation). */
export interface Continuation {
  interaction: string | null;
  return_to: string | null;
}

/** The text to show for a failed call: the server's detail, else the screen's fallback (network failures, 500s). */
export const hostedErrorMessage = apiErrorMessage;

/**
 * The hosted pages' calls (/hosted/{project_key}/api/v1, see createHostedApiClient). A refused call
 * throws the ApiError of lib/api-client. Calls of a signed-in user (`session`) refresh the cookie pair
 * once on a 401 (every call of the project's pages, and its other tabs, wait for the same refresh) and
 * are retried once, unless the 401 asks for a step-up (see StepUpProvider).
 */
export function createHostedApi(projectKey: string, locale: () => string = () => 'en') {
  const { call, session } = createHostedApiClient(projectKey, locale);
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
    sendEmailCode: (email: string, captchaToken: string) => call<Message>('POST', '/auth/email-code', { email, captcha_token: captchaToken }),
    verifyEmailCode: (input: { email: string; code: string; device_fingerprint: string }) => call<SignInAnswer>('POST', '/auth/email-code/verify', input),
    sendMagicLink: (email: string, captchaToken: string, continuation: Continuation) =>
      call<Message>('POST', '/auth/magic-link', { email, captcha_token: captchaToken, ...continuation }),
    /** `confirm`: the person opening the link in another browser than the one that asked chose to go on. */
    openMagicLink: (token: string, confirm: boolean, deviceFingerprint: string | null) =>
      call<MagicLinkAnswer>('POST', '/auth/magic-link/open', { token, confirm, device_fingerprint: deviceFingerprint }),
    signInProviders: () => call<{ providers: SignInProvider[] }>('GET', '/auth/oauth/providers'),
    /** Home-realm discovery: whether the address's domain signs in through its organization's IdP (the answer depends on the domain only). */
    discoverSso: (email: string) => call<SsoDiscovery>('GET', `/auth/sso/discover?${new URLSearchParams({ email })}`),
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
    /** Without the current password (an account that has none), the server asks for a step-up (HostedStepUp). */
    changePassword: (currentPassword: string | undefined, newPassword: string) =>
      session<Message>('POST', '/auth/change-password', { ...(currentPassword !== undefined && { current_password: currentPassword }), new_password: newPassword }),
    /** Without the password, the server asks for a step-up (HostedStepUp). */
    changeEmail: (newEmail: string, password?: string) => session<Message>('POST', '/auth/change-email', { new_email: newEmail, ...(password ? { password } : {}) }),
    deleteAccount: (password?: string) => session<Message>('POST', '/auth/delete-account', password ? { password } : {}),

    sessions: () => session<{ sessions: OwnSession[] }>('GET', '/auth/sessions'),
    revokeSession: (sessionId: string) => session<Message>('DELETE', `/auth/sessions/${id(sessionId)}`),
    revokeOtherSessions: () => session<Message & { revoked: number }>('POST', '/auth/sessions/revoke-others', {}),

    stepUpStatus: () => session<StepUpStatus>('GET', '/auth/step-up'),
    stepUp: (proof: StepUpInput) => session<StepUpAnswer>('POST', '/auth/step-up', proof),
    stepUpPasskeyOptions: () => session<WebAuthnOptions>('POST', '/auth/step-up/passkey/options', {}),
    stepUpEmailCode: () => session<StepUpEmailCodeAnswer>('POST', '/auth/step-up/email-code', {}),

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

    myOrganizations: () => session<MyOrganizations>('GET', '/me/organizations'),
    createOrganization: (input: { name: string; slug?: string }) => session<MyOrganization>('POST', '/me/organizations', input),
    /** Sets the cookies of a session in that organization (null: in none). */
    switchOrganization: (organizationId: string | null) => session<unknown>('POST', '/auth/switch-organization', { organization_id: organizationId }),
    organizationMembers: (organizationId: string) => session<{ members: OrganizationMember[] }>('GET', `/me/organizations/${id(organizationId)}/members`),
    /** The roles the user may invite with (403 without members:manage). */
    assignableRoles: (organizationId: string) => session<{ roles: AssignableRole[] }>('GET', `/me/organizations/${id(organizationId)}/roles`),
    inviteToOrganization: (organizationId: string, input: { email: string; role: string }) =>
      session<OrganizationInvitation>('POST', `/me/organizations/${id(organizationId)}/invitations`, input),
    /** The user's own id leaves the organization (409 for its last org:admin). */
    removeOrganizationMember: (organizationId: string, userId: string) => session<Message>('DELETE', `/me/organizations/${id(organizationId)}/members/${id(userId)}`),
    /** Anonymous: what an invitation link is for. */
    /** Anonymous: what the device showing this code asks for (RFC 8628). */
    lookUpDeviceCode: (userCode: string) => call<DeviceRequest>('POST', '/device/lookup', { user_code: userCode }),
    approveDevice: (userCode: string) => session<Message>('POST', '/device/approve', { user_code: userCode }),
    denyDevice: (userCode: string) => session<Message>('POST', '/device/deny', { user_code: userCode }),
    previewInvitation: (token: string) => call<InvitationPreview>('POST', '/invitations/preview', { token }),
    acceptInvitation: (token: string) => session<MyOrganization>('POST', '/invitations/accept', { token }),
  };
}

export type HostedApi = ReturnType<typeof createHostedApi>;
