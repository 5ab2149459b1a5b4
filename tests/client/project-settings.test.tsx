import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { BUILT_IN_MAIL_TEMPLATES, builtInMailTemplate } from '../../shared/mail-templates';
import type { ProjectSettings } from '../../shared/schemas/project-settings';
import { callsTo, renderApp, sampleProject, sampleUser, trpcError } from './utils';

/** Project detail → Settings → End-user rules and End-user mails (trpc.projectSettings.*). */

const defaults: ProjectSettings = {
  project_id: 'p_1',
  password_min_length: 8,
  password_check_breached: true,
  access_token_ttl_s: 86_400,
  refresh_token_ttl_s: 604_800,
  captcha_provider: 'platform',
  captcha_site_key: null,
  captcha_secret_set: false,
  vpn_policy: 'allow',
  allow_unverified_sign_in: true,
  mail_sender_name: null,
  mail_product_name: null,
  mail_accent_color: null,
  mail_secured_by: true,
  mail_templates: { verification: null, password_reset: null, password_changed: null, magic_link: null, email_code: null },
  sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true, connections: {} },
  string_overrides: {},
  updated_at: null,
};


interface Options {
  role?: 'owner' | 'admin' | 'viewer';
  settings?: ProjectSettings;
  update?: (input: unknown) => unknown;
  /** The settings section opened (/projects/p_1/settings/{section}). */
  section?: 'rules' | 'mails' | 'branding';
}

function renderSettings({ role = 'owner', settings = defaults, update, section = 'rules' }: Options = {}) {
  const answer = update ?? ((input: unknown) => ({ ...current, ...(input as object) }));
  let current = settings;
  return renderApp(`/projects/p_1/settings/${section}`, {
    user: sampleUser,
    handlers: {
      'projects.get': () => sampleProject({ id: 'p_1', name: 'Acme Storefront', role }),
      'social.connections': () => ({ connections: [] }),
      'projectSettings.get': () => current,
      'projectSettings.update': (input) => (current = answer(input) as ProjectSettings),
      'projectSettings.previewMail': (input) => {
        const { template } = input as { template: { subject: string } | null };
        return { from_name: 'Acme Team', to: 'jane.doe@example.com', subject: template?.subject.replace('{{product_name}}', 'Acme') ?? 'Verify', text: 'x', html: '<p>Rendered body</p>' };
      },
      'projectSettings.sendTestMail': () => ({ message: 'Test mail sent to ada@example.com' }),
    },
  });
}

const rulesCard = async () => within(await screen.findByRole('region', { name: 'End-user rules' }));
const mailsCard = async () => within(await screen.findByRole('region', { name: 'End-user mails' }));

describe('Project end-user settings', () => {
  it('shows the rules in force and sends only what changed', async () => {
    const { user, calls } = renderSettings();
    const card = await rulesCard();
    const minLength = card.getByRole('textbox', { name: 'Minimum password length' }) as HTMLInputElement;
    expect(minLength.value).toBe('8');
    expect((card.getByRole('textbox', { name: 'Refresh token lifetime (minutes)' }) as HTMLInputElement).value).toBe('10080');
    expect(card.getByText(/^7 days;/)).toBeTruthy();

    await user.clear(minLength);
    await user.type(minLength, '12');
    await user.click(card.getByRole('switch', { name: /Let users sign in before they verify/ }));
    await user.click(card.getByRole('radio', { name: 'Block' }));
    await user.click(card.getByRole('button', { name: 'Save end-user rules' }));
    expect(await screen.findByText('End-user settings saved')).toBeTruthy();
    expect(callsTo(calls, 'projectSettings.update')[0]?.input).toEqual({
      id: 'p_1',
      password_min_length: 12,
      allow_unverified_sign_in: false,
      vpn_policy: 'block',
    });
  });

  it('checks the form before sending: the minimum, the lifetimes and the captcha keys', async () => {
    const { user, calls } = renderSettings();
    const card = await rulesCard();
    const minLength = card.getByRole('textbox', { name: 'Minimum password length' });
    await user.clear(minLength);
    await user.type(minLength, '5');
    // Below the platform's minimum, the field comes back to it when left.
    await user.tab();
    expect((minLength as HTMLInputElement).value).toBe('8');
    await user.clear(minLength);
    const access = card.getByRole('textbox', { name: 'Access token lifetime (minutes)' });
    await user.clear(access);
    await user.type(access, '20000');
    await user.click(card.getByRole('textbox', { name: 'Captcha' }));
    await user.click(await screen.findByRole('option', { name: 'Cloudflare Turnstile', hidden: true }));
    await user.click(card.getByRole('button', { name: 'Save end-user rules' }));
    expect(await card.findByText('Between 8 and 72 characters')).toBeTruthy();
    expect(card.getByText('Between 1 and 1440 minutes')).toBeTruthy();
    // Those right, the rules across fields: a provider needs its keys.
    await user.type(minLength, '10');
    await user.clear(access);
    await user.type(access, '60');
    await user.click(card.getByRole('button', { name: 'Save end-user rules' }));
    expect(await card.findByText('The site key is required')).toBeTruthy();
    expect(card.getByText('The secret is required')).toBeTruthy();
    expect(callsTo(calls, 'projectSettings.update')).toHaveLength(0);
  });

  it('shows the server’s refusal', async () => {
    const { user } = renderSettings({
      update: () => {
        throw trpcError('UNPROCESSABLE_CONTENT', 'A captcha provider needs its site key and secret', 422);
      },
    });
    const card = await rulesCard();
    await user.click(card.getByRole('switch', { name: /^Refuse common passwords/ }));
    await user.click(card.getByRole('button', { name: 'Save end-user rules' }));
    expect(await screen.findByText('A captcha provider needs its site key and secret')).toBeTruthy();
  });

  it("follows the platform's captcha until None is chosen, which asks for no key and is saved as none", async () => {
    const { user, calls } = renderSettings();
    const card = await rulesCard();
    const captcha = card.getByRole('textbox', { name: /^Captcha/ }) as HTMLInputElement;
    expect(captcha.value).toBe("The platform's");
    expect(card.queryByRole('textbox', { name: /^Site key/ })).toBeNull();
    await user.click(captcha);
    await user.click(await screen.findByRole('option', { name: 'None', hidden: true }));
    expect(card.queryByRole('textbox', { name: /^Site key/ })).toBeNull();
    await user.click(card.getByRole('button', { name: 'Save end-user rules' }));
    await waitFor(() => expect(callsTo(calls, 'projectSettings.update')[0]?.input).toEqual({ id: 'p_1', captcha_provider: 'none' }));
  });

  it('never prefills a stored captcha secret, and keeps it when left empty', async () => {
    const { user, calls } = renderSettings({ settings: { ...defaults, captcha_provider: 'hcaptcha', captcha_site_key: 'site-1', captcha_secret_set: true } });
    const card = await rulesCard();
    const secret = card.getByLabelText(/^Secret/) as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.placeholder).toBe('Leave empty to keep the stored secret');
    const siteKey = card.getByRole('textbox', { name: /^Site key/ });
    await user.clear(siteKey);
    await user.type(siteKey, 'site-2');
    await user.click(card.getByRole('button', { name: 'Save end-user rules' }));
    await waitFor(() => expect(callsTo(calls, 'projectSettings.update')[0]?.input).toEqual({ id: 'p_1', captcha_site_key: 'site-2' }));
  });

  it('edits a mail template, previews it rendered, and saves it', async () => {
    const { user, calls } = renderSettings({ section: 'mails' });
    const card = await mailsCard();
    await user.type(card.getByRole('textbox', { name: /^Product name/ }), 'Acme');
    await user.click(card.getByRole('radio', { name: 'Password reset' }));
    const subject = card.getByRole('textbox', { name: 'Subject' }) as HTMLInputElement;
    expect(subject.value).toBe('Reset your {{product_name}} password');
    await user.click(card.getByRole('button', { name: 'Preview' }));
    const preview = within(await screen.findByRole('figure', { name: 'Mail preview' }));
    expect(preview.getByText('Reset your Acme password')).toBeTruthy();
    expect((preview.getByTitle('Rendered mail') as HTMLIFrameElement).getAttribute('srcdoc')).toBe('<p>Rendered body</p>');
    expect(preview.getByTitle('Rendered mail').getAttribute('sandbox')).toBe('');
    expect(callsTo(calls, 'projectSettings.previewMail')[0]?.input).toMatchObject({ id: 'p_1', kind: 'password_reset', mail_product_name: 'Acme' });

    await user.clear(subject);
    await user.click(card.getByRole('button', { name: 'Save template' }));
    expect(await card.findByText('subject is required')).toBeTruthy();
    await user.type(subject, 'Your {{{{name}}}} reset');
    await user.click(card.getByRole('button', { name: 'Save template' }));
    expect(await card.findByText('Templates may use only {{product_name}}, {{email}}, {{link}}, {{code}}')).toBeTruthy();
    await user.clear(subject);
    await user.type(subject, 'New password for {{{{product_name}}');
    await user.click(card.getByRole('button', { name: 'Save template' }));
    expect(await screen.findByText('Mail template saved')).toBeTruthy();
    expect(callsTo(calls, 'projectSettings.update').at(-1)?.input).toMatchObject({
      id: 'p_1',
      mail_templates: { password_reset: { subject: 'New password for {{product_name}}' } },
    });
    expect(await card.findByText('Custom template')).toBeTruthy();
  });

  it('starts the editor from the built-in mail, sends a test mail, and turns the "Secured by" line off', async () => {
    const { user, calls } = renderSettings({ section: 'mails' });
    const card = await mailsCard();
    expect(card.getByText(/they carry the project's name \(Acme Storefront\)/)).toBeTruthy();
    expect((card.getByRole('textbox', { name: 'Subject' }) as HTMLInputElement).value).toBe(BUILT_IN_MAIL_TEMPLATES.verification.subject);
    expect((card.getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement).value).toBe(BUILT_IN_MAIL_TEMPLATES.verification.text);
    await user.click(card.getByRole('button', { name: 'Send test mail' }));
    expect(await screen.findByText('Test mail sent to ada@example.com')).toBeTruthy();
    expect(callsTo(calls, 'projectSettings.sendTestMail')[0]?.input).toMatchObject({ id: 'p_1', kind: 'verification', template: BUILT_IN_MAIL_TEMPLATES.verification, mail_secured_by: true });

    await user.click(card.getByRole('switch', { name: /Secured by AuthPlatform/ }));
    await user.click(card.getByRole('button', { name: 'Save mail settings' }));
    await waitFor(() => expect(callsTo(calls, 'projectSettings.update')[0]?.input).toMatchObject({ id: 'p_1', mail_secured_by: false }));
  });

  it('shows a viewer everything, disabled, with a note', async () => {
    const { user, calls } = renderSettings({ role: 'viewer' });
    const rules = await rulesCard();
    expect(rules.getByText(/You are a viewer on this project/)).toBeTruthy();
    expect(rules.getByRole('textbox', { name: 'Minimum password length' }).matches(':disabled')).toBe(true);
    expect(rules.getByRole('switch', { name: /^Refuse common passwords/ }).matches(':disabled')).toBe(true);
    expect(rules.queryByRole('button', { name: 'Save end-user rules' })).toBeNull();
    // The navigation stays usable for a viewer: the next section opens, read-only too.
    await user.click(within(screen.getByRole('navigation', { name: 'Settings sections' })).getByRole('link', { name: 'Mails' }));
    const mails = await mailsCard();
    expect(mails.getByRole('textbox', { name: 'Subject' }).matches(':disabled')).toBe(true);
    expect(mails.getByRole('textbox', { name: /^Sender name/ }).matches(':disabled')).toBe(true);
    expect(mails.queryByRole('button', { name: 'Preview' })).toBeNull();
    expect(callsTo(calls, 'projectSettings.update')).toHaveLength(0);
  });
});

describe('The mail editor in a language', () => {
  it('starts from the built-in mail in the chosen language, with the project’s wording, and previews in it', async () => {
    const { user, calls } = renderSettings({ section: 'mails', settings: { ...defaults, string_overrides: { de: { 'mail:verification.subject': 'Fast geschafft bei {{product_name}}' } } } });
    const card = await mailsCard();
    await user.click(card.getByRole('textbox', { name: "Recipient's language" }));
    await user.click(await screen.findByRole('option', { name: 'Deutsch', hidden: true }));
    expect((card.getByRole('textbox', { name: 'Subject' }) as HTMLInputElement).value).toBe('Fast geschafft bei {{product_name}}');
    expect((card.getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement).value).toBe(builtInMailTemplate('verification', 'de').text);
    await user.click(card.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(callsTo(calls, 'projectSettings.previewMail')[0]?.input).toMatchObject({ kind: 'verification', locale: 'de' }));
  });
});

describe('Wording per language', () => {
  it('saves the project’s own German text for a string, lists it and resets it', async () => {
    const { user, calls } = renderSettings({
      section: 'branding',
      update: (input) => {
        const changes = input as { string_overrides: Record<string, Record<string, string | null>> };
        const de = Object.fromEntries(Object.entries(changes.string_overrides.de ?? {}).filter(([, text]) => text !== null)) as Record<string, string>;
        return { ...defaults, string_overrides: Object.keys(de).length > 0 ? { de } : {} };
      },
    });
    const card = within(await screen.findByRole('region', { name: 'Wording per language' }));
    await user.click(card.getByRole('textbox', { name: 'Language' }));
    await user.click(await screen.findByRole('option', { name: 'Deutsch (de)', hidden: true }));
    await user.click(card.getByRole('textbox', { name: 'String' }));
    await user.type(card.getByRole('textbox', { name: 'String' }), 'hosted:signIn.title');
    await user.click(await screen.findByRole('option', { name: 'hosted:signIn.title', hidden: true }));
    const text = card.getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement;
    expect(text.value).toBe('Anmelden');
    await user.clear(text);
    await user.type(text, 'Willkommen zurück');
    await user.click(card.getByRole('button', { name: 'Save text' }));
    expect(await screen.findByText('Text saved')).toBeTruthy();
    expect(callsTo(calls, 'projectSettings.update')[0]?.input).toEqual({ id: 'p_1', string_overrides: { de: { 'hosted:signIn.title': 'Willkommen zurück' } } });
    const table = within(await card.findByRole('table', { name: 'Your Deutsch strings' }));
    expect(table.getByText('Willkommen zurück')).toBeTruthy();

    await user.click(table.getByRole('button', { name: 'Reset hosted:signIn.title' }));
    expect(await screen.findByText('Built-in text restored')).toBeTruthy();
    expect(callsTo(calls, 'projectSettings.update')[1]?.input).toEqual({ id: 'p_1', string_overrides: { de: { 'hosted:signIn.title': null } } });
    // The catalogue's select types through hundreds of options; the Branding section renders its form and preview beside it.
  }, 30_000);
});
