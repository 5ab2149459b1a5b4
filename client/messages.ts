/**
 * Toast texts of SPEC §8 that shared/messages.ts does not hold (those the server never sends).
 * Word for word from the specification.
 */
export { MESSAGES, VALIDATION } from '../shared/messages';

export const TOASTS = {
  loginSuccess: 'Login successful!',
  loginFailed: 'Login failed',
  signupFailed: 'Signup failed',
  profileUpdated: 'Profile updated successfully!',
  profileUpdateFailed: 'Failed to update profile',
  resetEmailFailed: 'Failed to send reset email',
  resetSuccess: 'Password reset successfully!',
  resetFailed: 'Failed to reset password',
  verifyFailed: 'Email verification failed. Please try again.',
  resendFailed: 'Failed to resend verification email.',
  verifyNoToken: 'Invalid verification link. No token provided.',
  projectCreated: 'Project created successfully!',
  projectCreateFailed: 'Failed to create project',
  projectDeleted: 'Project deleted successfully',
  projectDeleteFailed: 'Failed to delete project',
  dashboardLoadFailed: 'Failed to load dashboard data',
  projectsLoadFailed: 'Failed to load projects',
  changePasswordFailed: 'Failed to change password',
  deleteAccountFailed: 'Failed to delete account',
  notificationsUpdated: 'Notification settings updated',
  securityUpdated: 'Security settings updated',
} as const;

export const DELETE_PROJECT_CONFIRM = 'Are you sure you want to delete this project? This action cannot be undone.';
export const DELETE_CONFIRM_WORD = 'DELETE';

/** Texts of the account screens (e-mail change, mail preferences) that the specification does not word. */
export const ACCOUNT_TEXTS = {
  notificationsUpdateFailed: 'Failed to update notification settings',
  securityUpdateFailed: 'Failed to update security settings',
  changeEmailFailed: 'Failed to request the email change',
  confirmEmailChangeFailed: 'Failed to change the email address',
  emailChangeNoToken: 'Invalid email change link. No token provided.',
  emailChangedSignIn: 'Your email address has been changed. Sign in with the new address.',
} as const;

/** Texts of the project screens (project detail, API keys, analytics) that the specification does not word. */
/** The project's rules for its end users (Settings → End-user rules, End-user mails). */
export const SETTINGS_TEXTS = {
  loadFailed: 'Failed to load the end-user settings',
  saved: 'End-user settings saved',
  saveFailed: 'Failed to save the end-user settings',
  mailsSaved: 'Mail settings saved',
  templateSaved: 'Mail template saved',
  templateRestored: 'Built-in mail restored',
  previewFailed: 'Failed to render the preview',
  testMailFailed: 'Failed to send the test mail',
  wordingSaved: 'Text saved',
  wordingReset: 'Built-in text restored',
  readOnly: 'You are a viewer on this project: these settings are shown, and only its owners and admins can change them.',
} as const;

export const PROJECT_TEXTS = {
  projectLoadFailed: 'Failed to load project',
  projectUpdated: 'Project updated successfully',
  projectUpdateFailed: 'Failed to update project',
  projectActivated: 'Project activated',
  projectDeactivated: 'Project deactivated',
  apiKeysLoadFailed: 'Failed to load API keys',
  apiKeyCreated: 'API key created',
  apiKeyCreateFailed: 'Failed to create API key',
  apiKeyRevoked: 'API key revoked',
  apiKeyRevokeFailed: 'Failed to revoke API key',
  analyticsLoadFailed: 'Failed to load analytics',
  revokeKeyConfirm: 'Revoke this API key? Apps that use it stop working immediately. This cannot be undone.',
  secretWarning: 'Copy this key now and store it somewhere safe. It will not be shown again.',
  verifyToCreate: 'Creating projects needs a verified e-mail address.',
} as const;

/** Texts of the admin area and the per-project monitoring (SPEC §8 where it words them). */
export const MONITOR_TEXTS = {
  adminLoadFailed: 'Failed to load admin data',
  monitoringLoadFailed: 'Failed to load monitoring data',
  userStatusUpdated: 'User status updated',
  userStatusFailed: 'Failed to update user status',
  userUnlocked: 'User unlocked',
  mailResent: 'Mail queued again',
  mailResendFailed: 'Failed to resend the mail',
  userUnlockFailed: 'Failed to unlock user',
  mfaReset: 'Two-factor authentication reset',
  mfaResetFailed: 'Failed to reset two-factor authentication',
  deviceStatusUpdated: 'Device status updated',
  deviceStatusFailed: 'Failed to update device status',
  deviceTrustUpdated: 'Device trust updated',
  deviceTrustFailed: 'Failed to update device trust',
  sessionRevoked: 'Session revoked',
  sessionRevokeFailed: 'Failed to revoke session',
} as const;

/** A user's page (Admin → Users, a project's Monitoring → Users): its actions' toasts and its load failure. */
export const USER_PAGE_TEXTS = {
  loadFailed: 'Failed to load the user',
  verificationSent: 'Verification email sent',
  verificationFailed: 'Failed to send the verification email',
  passwordResetSent: 'Password reset email sent',
  passwordResetFailed: 'Failed to send the password reset email',
  signedOut: 'Signed out everywhere',
  signOutFailed: 'Failed to sign the user out',
  userDeleted: 'User deleted',
  deleteFailed: 'Failed to delete the user',
  userCreated: 'User created',
  createFailed: 'Failed to create the user',
} as const;

/** Texts of Settings → Security's sessions card and session timeout that the specification does not word. */
export const SESSION_TEXTS = {
  sessionsLoadFailed: 'Failed to load your sessions',
  signOutFailed: 'Failed to sign out the session',
  signOutOthersFailed: 'Failed to sign out the other sessions',
  timeoutUpdateFailed: 'Failed to update the session timeout',
} as const;
