export { createAuthPlatform, AuthError, type Auth, type AuthMiddleware, type AuthPlatform, type AuthPlatformOptions, type MachineAuth, type RequireAuthOptions, type RequireMachineOptions } from './middleware.js';
export { createVerifier, TokenError, type AuthClaims, type FetchLike, type MachineClaims, type Verifier, type VerifierOptions } from './verify.js';
export { createRevocationFeed, type RevocationFeed, type RevocationFeedOptions } from './revocation-feed.js';
export { createSseParser, readEventStream, type ServerSentEvent, type SseParserOptions } from './sse.js';
