export { AuthClient, createAuthClient } from './auth-client.js';
export type { AuthClientOptions, AuthEvents, AuthSnapshot, AuthStatus, InitResult, SignInOptions, SignOutOptions, SignOutReason } from './auth-client.js';
export { activeOrganizationOf, decodeJwt, userFromIdToken } from './claims.js';
export type { ActiveOrganization, OrganizationMembership, User } from './claims.js';
export type { AuthEnvironment, ChannelLike, LockManagerLike, StorageLike } from './environment.js';
export { AuthError } from './errors.js';
export type { AuthErrorCode } from './errors.js';
export type { RefreshTokenStorage } from './session-store.js';
