import { describe, expect, it } from 'vitest';
import { EmailSchema } from '../../shared/schemas/common.js';
import { ForgotPasswordInputSchema, LogInInputSchema } from '../../shared/schemas/auth.js';
import { CreateInvitationInputSchema } from '../../shared/schemas/organizations.js';
import { VALIDATION } from '../../shared/messages.js';

describe('an e-mail address as an input takes it', () => {
  it('arrives trimmed and in lower case, the form it is stored and compared in', () => {
    expect(EmailSchema.parse('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
  });

  it('is normalised by every input that holds one, so services take it as given', () => {
    expect(LogInInputSchema.parse({ email: 'ADA@EXAMPLE.COM', password: 'x', captcha_token: '', device_fingerprint: null }).email).toBe('ada@example.com');
    expect(ForgotPasswordInputSchema.parse({ email: ' Ada@Example.com', captcha_token: '' }).email).toBe('ada@example.com');
    expect(CreateInvitationInputSchema.parse({ email: 'Bo@Acme.Example' }).email).toBe('bo@acme.example');
  });

  it('still refuses what is not an address', () => {
    expect(EmailSchema.safeParse('not an address').error?.issues[0]?.message).toBe(VALIDATION.emailInvalid);
  });
});
