import { z } from 'zod';
import {
  AdminStatsSchema,
  DevicePageSchema,
  DeviceSchema,
  IdParamSchema,
  LoginAttemptPageSchema,
  PageQuerySchema,
  SessionPageSchema,
  UserDetailSchema,
  UserPageSchema,
} from '../../shared/schemas/admin.js';
import {
  CaptchaConfigSchema,
  ChangePasswordInputSchema,
  DeleteAccountInputSchema,
  EmailOnlyInputSchema,
  ForgotPasswordInputSchema,
  LogInInputSchema,
  LogInResponseSchema,
  RefreshInputSchema,
  ResetPasswordInputSchema,
  SignUpInputSchema,
  TokenPairSchema,
  UpdateProfileInputSchema,
  VerifyEmailInputSchema,
} from '../../shared/schemas/auth.js';
import { MessageSchema } from '../../shared/schemas/common.js';
import {
  AnalyticsQuerySchema,
  AnalyticsSchema,
  ApiKeySchema,
  CreateApiKeyInputSchema,
  CreatedApiKeySchema,
  CreateProjectInputSchema,
  DashboardStatsSchema,
  ProjectSchema,
  UpdateProjectInputSchema,
} from '../../shared/schemas/projects.js';
import { UserSchema } from '../../shared/schemas/user.js';
import {
  AltchaChallengeSchema,
  ApiKeyListSchema,
  EndUserHeadersSchema,
  HealthSchema,
  JwksSchema,
  OpenApiDocumentSchema,
  ProjectListSchema,
} from './schemas.js';

/**
 * Every REST operation the server answers, with the same zod schemas its route parses with. The
 * OpenAPI document (document.ts) is generated from this list, and tests/api/openapi.test.ts checks
 * that the list and the routes Fastify serves are the same set, so adding a route means adding it here.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `bearer` an access token (header; the browser's HttpOnly cookie also works on /api/v1),
 * `admin` the same with the admin role, `apiKey` a project key in X-API-Key; the `optional…` forms
 * accept the call without that credential.
 */
export type Auth = 'none' | 'optionalBearer' | 'bearer' | 'admin' | 'apiKey' | 'apiKeyAndBearer' | 'apiKeyAndOptionalBearer';

/**
 * Statuses an operation answers `{"detail": …}` with besides the ones every operation of its kind
 * has; document.ts adds those (400/403/413/415 on state-changing methods, 401 with credentials,
 * 403 for admin and API-key calls, 422 when there is input to validate).
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;

export interface OperationResponse {
  status: number;
  description: string;
  schema: z.ZodType;
}

export interface Operation {
  method: HttpMethod;
  /** Full path in OpenAPI style: /api/v1/projects/{id}. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Auth;
  /** One schema per `{name}` in the path. */
  params?: Record<string, z.ZodType>;
  query?: z.ZodObject;
  /** Request headers, one property per header. */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** The body may be left out entirely (the route parses `{}` then). */
  bodyOptional?: boolean;
  response: OperationResponse;
  /** Other non-error answers (e.g. /health's 503). */
  otherResponses?: OperationResponse[];
  errors?: ErrorStatus[];
}

export const TAGS = [
  { name: 'Auth', description: 'Developer accounts on the platform: sign-up, e-mail verification, sessions, passwords.' },
  { name: 'Profile', description: "The signed-in developer's own account." },
  { name: 'Captcha', description: 'What the sign-up and sign-in forms need to show a captcha.' },
  { name: 'Admin', description: 'Platform-wide monitoring; admin role required.' },
  { name: 'Projects', description: "The developer's projects, API keys, dashboard and analytics." },
  { name: 'Project monitoring', description: "One project's end users, login attempts, devices and sessions." },
  { name: 'Public API', description: "The end-user API a developer's backend calls with its project's key (X-API-Key). No cookies." },
  { name: 'Health', description: 'Liveness and the signing keys.' },
] as const;

type Tag = (typeof TAGS)[number]['name'];
const op = (o: Operation & { tag: Tag }): Operation => o;

const ok = (schema: z.ZodType, description = 'OK'): OperationResponse => ({ status: 200, description, schema });
const created = (schema: z.ZodType, description = 'Created'): OperationResponse => ({ status: 201, description, schema });

/** A path id, validated as the routes do (IdParamSchema): malformed ones answer 422. */
const Id = IdParamSchema.shape.id;
/** A path parameter the route takes as it is, without validation (so no 422). */
export const UnvalidatedParam = z.string();

// ---------------------------------------------------------------- health (server/modules/health/health.rest.ts)
const health: Operation[] = [
  op({
    method: 'get', path: '/health', operationId: 'getHealth', tag: 'Health', auth: 'none',
    summary: 'Health check',
    description: 'Answers 200 when the database answers, 503 when it does not. Never cached.',
    response: ok(HealthSchema, 'Healthy'),
    otherResponses: [{ status: 503, description: 'The database does not answer', schema: HealthSchema }],
  }),
  op({
    method: 'get', path: '/.well-known/jwks.json', operationId: 'getPlatformJwks', tag: 'Health', auth: 'none',
    summary: "The platform's public signing keys",
    description: 'Verifies the ES256 access tokens the platform issues to developers. Cacheable for 5 minutes.',
    response: ok(JwksSchema),
  }),
  op({
    method: 'get', path: '/api/openapi.json', operationId: 'getOpenApiDocument', tag: 'Health', auth: 'none',
    summary: 'This document',
    description: 'The OpenAPI 3.1 description of /api/v1 and /public/api/v1, generated from the schemas that validate the requests.',
    response: ok(OpenApiDocumentSchema),
  }),
];

// ---------------------------------------------------------------- auth (server/modules/auth/auth.rest.ts)
const auth: Operation[] = [
  op({
    method: 'post', path: '/api/v1/auth/signup', operationId: 'signUp', tag: 'Auth', auth: 'none',
    summary: 'Create a developer account',
    description: 'Mails a verification link. The answer is the same whether or not the address already has an account.',
    body: SignUpInputSchema,
    response: created(MessageSchema, 'Account created (or already there); check the mailbox'),
    errors: [429],
  }),
  op({
    method: 'post', path: '/api/v1/auth/login', operationId: 'logIn', tag: 'Auth', auth: 'none',
    summary: 'Sign in',
    description: 'Answers the tokens in the body and also sets them as HttpOnly cookies.',
    body: LogInInputSchema,
    response: ok(LogInResponseSchema),
    errors: [401, 403, 429],
  }),
  op({
    method: 'post', path: '/api/v1/auth/refresh', operationId: 'refreshTokens', tag: 'Auth', auth: 'none',
    summary: 'Rotate the refresh token',
    description: 'Takes the refresh token from the body, or else from its cookie. Each refresh token works once; presenting a spent one revokes the session.',
    body: RefreshInputSchema, bodyOptional: true,
    response: ok(TokenPairSchema),
    errors: [401, 429],
  }),
  op({
    method: 'post', path: '/api/v1/auth/logout', operationId: 'logOut', tag: 'Auth', auth: 'optionalBearer',
    summary: 'Sign out',
    description: 'Ends the session of the refresh token in the body (or cookie), or of the access token, and clears the cookies. Always succeeds.',
    body: RefreshInputSchema, bodyOptional: true,
    response: ok(MessageSchema),
  }),
  op({
    method: 'get', path: '/api/v1/auth/me', operationId: 'getMe', tag: 'Auth', auth: 'bearer',
    summary: 'The signed-in developer',
    response: ok(UserSchema),
  }),
  op({
    method: 'post', path: '/api/v1/auth/verify-email', operationId: 'verifyEmail', tag: 'Auth', auth: 'none',
    summary: 'Verify the e-mail address with the mailed token',
    body: VerifyEmailInputSchema,
    response: ok(MessageSchema),
    errors: [429],
  }),
  op({
    method: 'post', path: '/api/v1/auth/resend-verification', operationId: 'resendVerification', tag: 'Auth', auth: 'none',
    summary: 'Mail the verification link again',
    description: 'Same answer whether or not the address has an account.',
    body: EmailOnlyInputSchema,
    response: ok(MessageSchema),
    errors: [429],
  }),
  op({
    method: 'post', path: '/api/v1/auth/forgot-password', operationId: 'forgotPassword', tag: 'Auth', auth: 'none',
    summary: 'Mail a password-reset link',
    description: 'Same answer whether or not the address has an account. The link is valid for one hour, once.',
    body: ForgotPasswordInputSchema,
    response: ok(MessageSchema),
    errors: [429],
  }),
  op({
    method: 'post', path: '/api/v1/auth/reset-password', operationId: 'resetPassword', tag: 'Auth', auth: 'none',
    summary: 'Set a new password with the mailed token',
    description: 'Signs out every session of the account.',
    body: ResetPasswordInputSchema,
    response: ok(MessageSchema),
  }),
  op({
    method: 'post', path: '/api/v1/auth/change-password', operationId: 'changePassword', tag: 'Auth', auth: 'bearer',
    summary: 'Change the password',
    description: 'Signs out the other sessions of the account.',
    body: ChangePasswordInputSchema,
    response: ok(MessageSchema),
  }),
];

// ---------------------------------------------------------------- profile (server/modules/profile/profile.rest.ts)
const profile: Operation[] = [
  op({
    method: 'patch', path: '/api/v1/auth/profile', operationId: 'updateProfile', tag: 'Profile', auth: 'bearer',
    summary: 'Update names and the login-notification preference',
    description: 'Fields left out stay as they are.',
    body: UpdateProfileInputSchema,
    response: ok(UserSchema),
    errors: [404],
  }),
  op({
    method: 'post', path: '/api/v1/auth/delete-account', operationId: 'deleteAccount', tag: 'Profile', auth: 'bearer',
    summary: 'Delete the account',
    description: 'Deletes the account and its sessions and clears the cookies.',
    body: DeleteAccountInputSchema,
    response: ok(MessageSchema),
    errors: [404],
  }),
];

// ---------------------------------------------------------------- captcha (server/modules/captcha/captcha.rest.ts)
const captcha: Operation[] = [
  op({
    method: 'get', path: '/api/v1/captcha/config', operationId: 'getCaptchaConfig', tag: 'Captcha', auth: 'none',
    summary: 'Which captcha the forms must show',
    response: ok(CaptchaConfigSchema),
  }),
  op({
    method: 'get', path: '/api/v1/captcha/challenge', operationId: 'getCaptchaChallenge', tag: 'Captcha', auth: 'none',
    summary: 'A fresh ALTCHA proof-of-work challenge',
    description: 'Only when the provider is `altcha`; 404 otherwise. Never cached.',
    response: ok(AltchaChallengeSchema),
    errors: [404, 429],
  }),
];

// ---------------------------------------------------------------- admin (server/modules/admin/admin.rest.ts)
const admin: Operation[] = [
  op({
    method: 'get', path: '/api/v1/admin/stats', operationId: 'getAdminStats', tag: 'Admin', auth: 'admin',
    summary: 'Platform-wide counts', response: ok(AdminStatsSchema),
  }),
  op({
    method: 'get', path: '/api/v1/admin/users', operationId: 'listAdminUsers', tag: 'Admin', auth: 'admin',
    summary: 'Developer accounts, newest first', query: PageQuerySchema, response: ok(UserPageSchema),
  }),
  op({
    method: 'get', path: '/api/v1/admin/users/{id}', operationId: 'getAdminUser', tag: 'Admin', auth: 'admin',
    summary: 'One account with its devices, sessions and login attempts', params: { id: Id }, response: ok(UserDetailSchema), errors: [404],
  }),
  op({
    method: 'patch', path: '/api/v1/admin/users/{id}/toggle-active', operationId: 'toggleAdminUserActive', tag: 'Admin', auth: 'admin',
    summary: 'Deactivate or reactivate an account',
    description: 'Deactivating signs the account out everywhere. An admin cannot deactivate their own account (403).',
    params: { id: Id }, response: ok(UserSchema), errors: [404],
  }),
  op({
    method: 'post', path: '/api/v1/admin/users/{id}/unlock', operationId: 'unlockAdminUser', tag: 'Admin', auth: 'admin',
    summary: 'Lift the throttling after repeated failed sign-ins', params: { id: Id }, response: ok(UserSchema), errors: [404],
  }),
  op({
    method: 'get', path: '/api/v1/admin/login-attempts', operationId: 'listAdminLoginAttempts', tag: 'Admin', auth: 'admin',
    summary: 'Login attempts, newest first', query: PageQuerySchema, response: ok(LoginAttemptPageSchema),
  }),
  op({
    method: 'get', path: '/api/v1/admin/devices', operationId: 'listAdminDevices', tag: 'Admin', auth: 'admin',
    summary: 'Known devices', query: PageQuerySchema, response: ok(DevicePageSchema),
  }),
  op({
    method: 'patch', path: '/api/v1/admin/devices/{id}/toggle-block', operationId: 'toggleAdminDeviceBlock', tag: 'Admin', auth: 'admin',
    summary: 'Block or unblock a device', params: { id: Id }, response: ok(DeviceSchema), errors: [404],
  }),
  op({
    method: 'patch', path: '/api/v1/admin/devices/{id}/toggle-trust', operationId: 'toggleAdminDeviceTrust', tag: 'Admin', auth: 'admin',
    summary: 'Trust or distrust a device', params: { id: Id }, response: ok(DeviceSchema), errors: [404],
  }),
  op({
    method: 'get', path: '/api/v1/admin/sessions', operationId: 'listAdminSessions', tag: 'Admin', auth: 'admin',
    summary: 'Live sessions', query: PageQuerySchema, response: ok(SessionPageSchema),
  }),
  op({
    method: 'delete', path: '/api/v1/admin/sessions/{id}', operationId: 'revokeAdminSession', tag: 'Admin', auth: 'admin',
    summary: 'Revoke a session', params: { id: Id }, response: ok(MessageSchema), errors: [404],
  }),
];

// ---------------------------------------------------------------- projects (server/modules/projects/projects.rest.ts)
const projects: Operation[] = [
  op({
    method: 'get', path: '/api/v1/dashboard/stats', operationId: 'getDashboardStats', tag: 'Projects', auth: 'bearer',
    summary: "Counts over the developer's projects", response: ok(DashboardStatsSchema),
  }),
  op({
    method: 'get', path: '/api/v1/projects', operationId: 'listProjects', tag: 'Projects', auth: 'bearer',
    summary: "The developer's projects", response: ok(ProjectListSchema),
  }),
  op({
    method: 'post', path: '/api/v1/projects', operationId: 'createProject', tag: 'Projects', auth: 'bearer',
    summary: 'Create a project',
    description: 'Needs a verified e-mail address (403); 409 past the per-account project limit.',
    body: CreateProjectInputSchema, response: created(ProjectSchema), errors: [409],
  }),
  op({
    method: 'get', path: '/api/v1/projects/{id}', operationId: 'getProject', tag: 'Projects', auth: 'bearer',
    summary: 'One project', params: { id: Id }, response: ok(ProjectSchema), errors: [404],
  }),
  op({
    method: 'patch', path: '/api/v1/projects/{id}', operationId: 'updateProject', tag: 'Projects', auth: 'bearer',
    summary: 'Update a project', description: 'Fields left out stay as they are.',
    params: { id: Id }, body: UpdateProjectInputSchema, response: ok(ProjectSchema), errors: [404],
  }),
  op({
    method: 'delete', path: '/api/v1/projects/{id}', operationId: 'deleteProject', tag: 'Projects', auth: 'bearer',
    summary: 'Delete a project with its keys and end users', params: { id: Id }, response: ok(MessageSchema), errors: [404],
  }),
  op({
    method: 'get', path: '/api/v1/projects/{id}/api-keys', operationId: 'listApiKeys', tag: 'Projects', auth: 'bearer',
    summary: "A project's API keys (never their secrets)", params: { id: Id }, response: ok(ApiKeyListSchema), errors: [404],
  }),
  op({
    method: 'post', path: '/api/v1/projects/{id}/api-keys', operationId: 'createApiKey', tag: 'Projects', auth: 'bearer',
    summary: 'Create an API key',
    description: 'The secret is in this answer only, never again. Needs a verified e-mail address (403); 409 past the per-project key limit.',
    params: { id: Id }, body: CreateApiKeyInputSchema, response: created(CreatedApiKeySchema), errors: [404, 409],
  }),
  op({
    method: 'delete', path: '/api/v1/projects/{id}/api-keys/{key_id}', operationId: 'revokeApiKey', tag: 'Projects', auth: 'bearer',
    summary: 'Revoke an API key', params: { id: Id, key_id: Id }, response: ok(ApiKeySchema), errors: [404],
  }),
  op({
    method: 'get', path: '/api/v1/projects/{id}/analytics', operationId: 'getProjectAnalytics', tag: 'Projects', auth: 'bearer',
    summary: 'Daily sign-ups, logins and API requests',
    params: { id: Id }, query: AnalyticsQuerySchema, response: ok(AnalyticsSchema), errors: [404],
  }),
  // The admin area's views and actions, over one project's end users.
  op({
    method: 'get', path: '/api/v1/projects/{id}/stats', operationId: 'getProjectStats', tag: 'Project monitoring', auth: 'bearer',
    summary: "Counts over the project's end users", params: { id: Id }, response: ok(AdminStatsSchema), errors: [404],
  }),
  op({
    method: 'get', path: '/api/v1/projects/{id}/users', operationId: 'listProjectUsers', tag: 'Project monitoring', auth: 'bearer',
    summary: 'End users, newest first', params: { id: Id }, query: PageQuerySchema, response: ok(UserPageSchema), errors: [404],
  }),
  op({
    method: 'get', path: '/api/v1/projects/{id}/users/{user_id}', operationId: 'getProjectUser', tag: 'Project monitoring', auth: 'bearer',
    summary: 'One end user with devices, sessions and login attempts', params: { id: Id, user_id: Id }, response: ok(UserDetailSchema), errors: [404],
  }),
  op({
    method: 'patch', path: '/api/v1/projects/{id}/users/{user_id}/toggle-active', operationId: 'toggleProjectUserActive', tag: 'Project monitoring', auth: 'bearer',
    summary: 'Deactivate or reactivate an end user', params: { id: Id, user_id: Id }, response: ok(UserSchema), errors: [404],
  }),
  op({
    method: 'post', path: '/api/v1/projects/{id}/users/{user_id}/unlock', operationId: 'unlockProjectUser', tag: 'Project monitoring', auth: 'bearer',
    summary: 'Lift the throttling of an end user', params: { id: Id, user_id: Id }, response: ok(UserSchema), errors: [404],
  }),
  op({
    method: 'get', path: '/api/v1/projects/{id}/login-attempts', operationId: 'listProjectLoginAttempts', tag: 'Project monitoring', auth: 'bearer',
    summary: "End users' login attempts", params: { id: Id }, query: PageQuerySchema, response: ok(LoginAttemptPageSchema), errors: [404],
  }),
  op({
    method: 'get', path: '/api/v1/projects/{id}/devices', operationId: 'listProjectDevices', tag: 'Project monitoring', auth: 'bearer',
    summary: "End users' devices", params: { id: Id }, query: PageQuerySchema, response: ok(DevicePageSchema), errors: [404],
  }),
  op({
    method: 'patch', path: '/api/v1/projects/{id}/devices/{device_id}/toggle-block', operationId: 'toggleProjectDeviceBlock', tag: 'Project monitoring', auth: 'bearer',
    summary: 'Block or unblock an end-user device', params: { id: Id, device_id: Id }, response: ok(DeviceSchema), errors: [404],
  }),
  op({
    method: 'patch', path: '/api/v1/projects/{id}/devices/{device_id}/toggle-trust', operationId: 'toggleProjectDeviceTrust', tag: 'Project monitoring', auth: 'bearer',
    summary: 'Trust or distrust an end-user device', params: { id: Id, device_id: Id }, response: ok(DeviceSchema), errors: [404],
  }),
  op({
    method: 'get', path: '/api/v1/projects/{id}/sessions', operationId: 'listProjectSessions', tag: 'Project monitoring', auth: 'bearer',
    summary: "End users' live sessions", params: { id: Id }, query: PageQuerySchema, response: ok(SessionPageSchema), errors: [404],
  }),
  op({
    method: 'delete', path: '/api/v1/projects/{id}/sessions/{session_id}', operationId: 'revokeProjectSession', tag: 'Project monitoring', auth: 'bearer',
    summary: "Revoke an end user's session", params: { id: Id, session_id: Id }, response: ok(MessageSchema), errors: [404],
  }),
];

// ---------------------------------------------------------------- public API (server/modules/public-api/public.rest.ts)
const publicApi: Operation[] = [
  op({
    method: 'get', path: '/public/api/v1/projects/{project_key}/jwks.json', operationId: 'getProjectJwks', tag: 'Public API', auth: 'none',
    summary: "A project's public signing keys",
    description: "Verifies the access tokens issued to the project's end users (issuer APP_URL/projects/{project_key}, audience the project key). Cacheable for 5 minutes.",
    params: { project_key: UnvalidatedParam }, response: ok(JwksSchema), errors: [404],
  }),
  op({
    method: 'post', path: '/public/api/v1/auth/signup', operationId: 'publicSignUp', tag: 'Public API', auth: 'apiKey',
    summary: 'Sign up an end user', headers: EndUserHeadersSchema,
    body: SignUpInputSchema, response: created(MessageSchema), errors: [429],
  }),
  op({
    method: 'post', path: '/public/api/v1/auth/login', operationId: 'publicLogIn', tag: 'Public API', auth: 'apiKey',
    summary: 'Sign in an end user', headers: EndUserHeadersSchema,
    body: LogInInputSchema, response: ok(LogInResponseSchema), errors: [429],
  }),
  op({
    method: 'post', path: '/public/api/v1/auth/refresh', operationId: 'publicRefreshTokens', tag: 'Public API', auth: 'apiKey',
    summary: "Rotate an end user's refresh token", headers: EndUserHeadersSchema,
    body: RefreshInputSchema, response: ok(TokenPairSchema), errors: [429],
  }),
  op({
    method: 'post', path: '/public/api/v1/auth/logout', operationId: 'publicLogOut', tag: 'Public API', auth: 'apiKeyAndOptionalBearer',
    summary: "End an end user's session",
    description: "Needs the end user's access token (Authorization: Bearer) or their refresh token in the body.",
    body: RefreshInputSchema, bodyOptional: true, response: ok(MessageSchema),
  }),
  op({
    method: 'post', path: '/public/api/v1/auth/verify-email', operationId: 'publicVerifyEmail', tag: 'Public API', auth: 'apiKey',
    summary: "Verify an end user's e-mail address", headers: EndUserHeadersSchema,
    body: VerifyEmailInputSchema, response: ok(MessageSchema), errors: [429],
  }),
  op({
    method: 'post', path: '/public/api/v1/auth/resend-verification', operationId: 'publicResendVerification', tag: 'Public API', auth: 'apiKey',
    summary: 'Mail the verification link again', headers: EndUserHeadersSchema,
    body: EmailOnlyInputSchema, response: ok(MessageSchema), errors: [429],
  }),
  op({
    method: 'post', path: '/public/api/v1/auth/forgot-password', operationId: 'publicForgotPassword', tag: 'Public API', auth: 'apiKey',
    summary: 'Mail an end user a password-reset link', headers: EndUserHeadersSchema,
    body: ForgotPasswordInputSchema, response: ok(MessageSchema), errors: [429],
  }),
  op({
    method: 'post', path: '/public/api/v1/auth/reset-password', operationId: 'publicResetPassword', tag: 'Public API', auth: 'apiKey',
    summary: "Set an end user's new password with the mailed token",
    body: ResetPasswordInputSchema, response: ok(MessageSchema),
  }),
  op({
    method: 'get', path: '/public/api/v1/profile', operationId: 'publicGetProfile', tag: 'Public API', auth: 'apiKeyAndBearer',
    summary: 'The end user of the access token', response: ok(UserSchema),
  }),
  op({
    method: 'put', path: '/public/api/v1/profile', operationId: 'publicUpdateProfile', tag: 'Public API', auth: 'apiKeyAndBearer',
    summary: "Update the end user's names and preferences", description: 'Fields left out stay as they are.',
    body: UpdateProfileInputSchema, response: ok(UserSchema), errors: [404],
  }),
];

/** One list, grouped by module. */
export const OPERATIONS: readonly Operation[] = [...health, ...auth, ...profile, ...captcha, ...admin, ...projects, ...publicApi];
