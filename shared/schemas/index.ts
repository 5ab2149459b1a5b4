export * from './auth.js';
export * from './common.js';
export * from './user.js';
export * from './admin.js';
export * from './projects.js';
export * from './mfa.js';
export * from './passkeys.js';
export * from './sessions.js';
