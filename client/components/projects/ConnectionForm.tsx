import { useState } from 'react';
import { Anchor, Button, Collapse, Group, PasswordInput, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { SaveConnectionInputSchema, SOCIAL_PROVIDER_DEFAULTS, type Connection, type SocialProvider } from '../../../shared/schemas/social';
import { resolver } from '../../forms';
import { CopyField } from '../CopyField';
import { readableDetail } from '../../lib/readable-errors';

export type ConnectionFormValues = {
  client_id: string;
  client_secret: string;
  display_name: string;
  issuer: string;
  authorize_url: string;
  token_url: string;
  api_url: string;
  enabled: boolean;
};

/** The fields a save may name in its refusal (`client_id is required`, `issuer must be …`). */
const FIELDS = ['client_id', 'client_secret', 'display_name', 'issuer', 'authorize_url', 'token_url', 'api_url'] as const;

/** The server's rules, plus the two that depend on the provider and on a stored connection. */
const formSchema = (provider: SocialProvider, stored: boolean) =>
  SaveConnectionInputSchema.superRefine((values, context) => {
    if (!stored && !values.client_secret) context.addIssue({ code: 'custom', path: ['client_secret'], message: 'client_secret is required' });
    if (provider === 'oidc' && !values.issuer) context.addIssue({ code: 'custom', path: ['issuer'], message: 'issuer is required for an OpenID Connect provider' });
  });

const valuesOf = (connection: Connection | null): ConnectionFormValues => ({
  client_id: connection?.client_id ?? '',
  // Write-only: the stored secret is never sent back, so the field always starts empty.
  client_secret: '',
  display_name: connection?.display_name ?? '',
  issuer: connection?.issuer ?? '',
  authorize_url: connection?.authorize_url ?? '',
  token_url: connection?.token_url ?? '',
  api_url: connection?.api_url ?? '',
  enabled: connection?.enabled ?? true,
});

/** The field a refusal's detail is about, when it names one. */
export function fieldOfDetail(detail: string): (typeof FIELDS)[number] | null {
  return FIELDS.find((field) => detail.startsWith(`${field} `)) ?? null;
}

interface ConnectionFormProps {
  provider: SocialProvider;
  connection: Connection | null;
  callbackUrl: string;
  saving: boolean;
  /** Saves; answers the refusal's detail to show under its field, or null when done (or shown elsewhere). */
  onSave(values: ConnectionFormValues): Promise<string | null>;
  onCancel(): void;
}

/** A project's connection to one provider: the callback URL to register there, its client, and where it lives. */
export function ConnectionForm({ provider, connection, callbackUrl, saving, onSave, onCancel }: ConnectionFormProps) {
  const stored = connection !== null;
  const form = useForm<ConnectionFormValues>({ mode: 'controlled', initialValues: valuesOf(connection), validate: resolver(formSchema(provider, stored)) });
  const [advanced, setAdvanced] = useState(Boolean(connection?.authorize_url || connection?.token_url || connection?.api_url));

  const onSubmit = form.onSubmit(async (values) => {
    const detail = await onSave(values);
    const field = detail ? fieldOfDetail(detail) : null;
    if (field) {
      if (['authorize_url', 'token_url', 'api_url'].includes(field)) setAdvanced(true);
      form.setFieldError(field, readableDetail(detail ?? ''));
    }
  });

  const github = provider === 'github';
  const defaults = SOCIAL_PROVIDER_DEFAULTS.github;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <CopyField
          label="Callback URL"
          value={callbackUrl}
          copyLabel="Copy callback URL"
          wrap
          description={github ? 'Paste it as the Authorization callback URL of your GitHub OAuth app.' : 'Register it as a redirect URI of your app at the provider.'}
        />
        {provider === 'oidc' && (
          <TextInput label="Display name" description="The button says “Continue with …”." placeholder="Single sign-on" {...form.getInputProps('display_name')} />
        )}
        <TextInput label="Client ID" required autoComplete="off" {...form.getInputProps('client_id')} />
        <PasswordInput
          label="Client secret"
          required={!stored}
          autoComplete="new-password"
          placeholder={stored ? 'Leave empty to keep the stored secret' : undefined}
          {...form.getInputProps('client_secret')}
        />
        {provider === 'oidc' && (
          <TextInput
            label="Issuer"
            required
            description="Its discovery document is at the issuer + /.well-known/openid-configuration."
            placeholder="https://login.example.com"
            {...form.getInputProps('issuer')}
          />
        )}
        {(provider === 'google' || provider === 'microsoft') && (
          <TextInput
            label="Issuer"
            description={provider === 'microsoft' ? 'Optional: a tenant’s issuer lets only that organisation sign in.' : 'Optional.'}
            placeholder={SOCIAL_PROVIDER_DEFAULTS[provider].issuer}
            {...form.getInputProps('issuer')}
          />
        )}
        {github && (
          <div>
            <Anchor component="button" type="button" size="sm" onClick={() => setAdvanced((open) => !open)} aria-expanded={advanced}>
              <Group gap={4} component="span">
                {advanced ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />} Advanced (GitHub Enterprise)
              </Group>
            </Anchor>
            <Collapse in={advanced}>
              <Stack gap="sm" mt="sm">
                <TextInput label="Authorize URL" placeholder={defaults.authorize_url} {...form.getInputProps('authorize_url')} />
                <TextInput label="Token URL" placeholder={defaults.token_url} {...form.getInputProps('token_url')} />
                <TextInput label="API URL" placeholder={defaults.api_url} {...form.getInputProps('api_url')} />
              </Stack>
            </Collapse>
          </div>
        )}
        <Switch label="Enabled" description="Show the button on the hosted pages and accept sign-ins." {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Save connection
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
