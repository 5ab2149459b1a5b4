/** User-facing texts that both the server and the client show, word for word from the specification. */
export const MESSAGES = {
  signupSuccess: 'Developer account created successfully! Please check your email for verification.',
  passwordResetSuccess: 'Password reset successfully! You can now sign in with your new password.',
  emailVerifiedRedirect: 'Email verified! Please log in to continue.',
  emailVerified: 'Email verified successfully!',
  verificationSent: 'Verification email sent! Please check your inbox.',
  resetEmailSent: 'Password reset email sent!',
  passwordChanged: 'Password changed successfully',
  loggedOut: 'Logged out successfully',
  accountDeleted: 'Account deleted successfully',
} as const;

export const VALIDATION = {
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 72 bytes',
  passwordComplexity: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  passwordTooCommon: 'This password is too common. Please choose a less predictable one.',
  passwordsDontMatch: "Passwords don't match",
  urlInvalid: 'Please enter a valid URL',
  resetTokenInvalid: 'Invalid reset token',
  verificationTokenMissing: 'Invalid verification token',
  currentPasswordRequired: 'Current password is required',
  newPasswordsDontMatch: 'New passwords do not match',
  newPasswordTooShort: 'Password must be at least 8 characters long',
  projectNameRequired: 'Project name is required',
  deleteConfirm: 'Please type DELETE to confirm',
  nameTooLong: 'Name must be at most 100 characters',
} as const;
