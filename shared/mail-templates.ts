import type { MailTemplateKind } from './schemas/project-settings.js';

/**
 * The built-in wording of the mails a project may rewrite: the one source that the server sends when
 * a project has no template of its own, and that the template editor starts from. A paragraph that is
 * only `{{link}}` becomes the mail's button (its label below); the mail's layout adds the sign-off
 * ("— {{product_name}}") and, unless the project turned it off, the "Secured by" line.
 */
export const BUILT_IN_MAIL_TEMPLATES: Readonly<Record<MailTemplateKind, { subject: string; text: string }>> = Object.freeze({
  verification: {
    subject: 'Verify your email address for {{product_name}}',
    text: [
      'Welcome to {{product_name}}! Please confirm {{email}} to finish setting up your account.',
      '{{link}}',
      'This link expires in 24 hours and works once.',
      'If you did not create an account, do not click the link: someone else typed your address, and the link would confirm their password.',
    ].join('\n\n'),
  },
  password_reset: {
    subject: 'Reset your {{product_name}} password',
    text: [
      'We received a request to reset the password of {{email}}.',
      '{{link}}',
      'This link expires in 1 hour and works once. If you did not ask for it, ignore this message.',
    ].join('\n\n'),
  },
  password_changed: {
    subject: 'Your {{product_name}} password was changed',
    text: [
      'The password of your account ({{email}}) was just changed and every other session was signed out.',
      'If this was not you, reset your password right away: {{link}}',
    ].join('\n\n'),
  },
});

/** The label of the button a paragraph of only `{{link}}` becomes. */
export const MAIL_ACTION_LABELS: Readonly<Record<MailTemplateKind, string>> = Object.freeze({
  verification: 'Verify email',
  password_reset: 'Reset password',
  password_changed: 'Open sign-in',
});
