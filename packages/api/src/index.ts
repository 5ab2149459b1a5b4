export { createPublicApiClient, type PublicApiClient, type PublicApiClientOptions, type PublicApiPaths } from './client.js';
export type { components, operations, paths } from './openapi.js';
export {
  AccessTokenError,
  verifyAccessToken,
  type AccessTokenClaims,
  type AccessTokenErrorCode,
  type VerifiedAccessToken,
  type VerifyAccessTokenOptions,
} from './verify.js';
