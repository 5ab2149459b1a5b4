import { useEffect } from 'react';
import { Button, Card, Group, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { z } from 'zod';
import { AllowedOriginsSchema, PostLogoutRedirectUrisSchema, RedirectUrisSchema, type Project } from '../../../shared/schemas/projects';
import { resolver } from '../../forms';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { PROJECT_TEXTS } from '../../messages';
import { CopyField } from '../CopyField';
import { UnsavedChangesGuard } from '../UnsavedChangesGuard';
import { notifyFailure } from './states';

/** One address per line in the form; a list in the API. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const listOf = <T extends z.ZodType<string[], string[]>>(schema: T) => z.string().transform(lines).pipe(schema);

const SignInSettingsFormSchema = z.object({
  redirectUris: listOf(RedirectUrisSchema),
  postLogoutRedirectUris: listOf(PostLogoutRedirectUrisSchema),
  allowedOrigins: listOf(AllowedOriginsSchema),
});

type SignInSettingsValues = {
  redirectUris: string;
  postLogoutRedirectUris: string;
  allowedOrigins: string;
};

const valuesOf = (project: Project): SignInSettingsValues => ({
  redirectUris: project.redirect_uris.join('\n'),
  postLogoutRedirectUris: project.post_logout_redirect_uris.join('\n'),
  allowedOrigins: project.allowed_origins.join('\n'),
});

/**
 * The project as an OpenID Connect provider: what an app's client library needs (issuer, client id,
 * hosted sign-in page) and the addresses it may send users back to (Settings → Sign-in methods & connections).
 */
export function ProjectSignInSettings({ project, onSaved }: { project: Project; onSaved(next: Project): Promise<unknown> }) {
  const update = trpc.projects.update.useMutation();
  const form = useForm<SignInSettingsValues>({ mode: 'controlled', initialValues: valuesOf(project), validate: resolver(SignInSettingsFormSchema) });

  const saved = JSON.stringify(valuesOf(project));
  useEffect(() => {
    form.setInitialValues(valuesOf(project));
    form.setValues(valuesOf(project));
    form.resetDirty();
  }, [saved]);

  const onSave = form.onSubmit(async (values) => {
    const parsed = SignInSettingsFormSchema.parse(values);
    try {
      const next = await update.mutateAsync({
        id: project.id,
        redirect_uris: parsed.redirectUris,
        post_logout_redirect_uris: parsed.postLogoutRedirectUris,
        allowed_origins: parsed.allowedOrigins,
      });
      notify.success(PROJECT_TEXTS.projectUpdated);
      await onSaved(next);
    } catch (error) {
      notifyFailure(PROJECT_TEXTS.projectUpdateFailed, error);
    }
  });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="sign-in-heading">
      <UnsavedChangesGuard when={form.isDirty()} onDiscard={() => form.reset()} />
      <Title order={3} fz="md" id="sign-in-heading">
        Sign-in with OpenID Connect
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        Any OpenID Connect client library signs your users in through this project&apos;s hosted pages. Browser and mobile apps use PKCE; a backend may also send one of the
        project&apos;s API keys as its client secret.
      </Text>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <CopyField label="Issuer" value={project.issuer} copyLabel="Copy issuer" wrap description="Discovery: issuer + /.well-known/openid-configuration" />
          <CopyField label="Client ID" value={project.project_key} copyLabel="Copy client ID" description="The project key." />
        </SimpleGrid>
        <CopyField label="Hosted sign-in page" value={`${project.hosted_pages_url}/sign-in`} copyLabel="Copy hosted sign-in page" wrap />
        <form onSubmit={onSave} noValidate>
          <Stack gap="md">
            <Textarea
              label="Redirect URIs"
              description={
                project.environment === 'development'
                  ? 'Where users return with a code, one per line, compared exactly (https://app.example/callback, or an app scheme like com.example.app:/callback). In development, http://localhost:*/callback accepts any local port.'
                  : 'Where users return with a code, one per line, compared exactly (https://app.example/callback, or an app scheme like com.example.app:/callback).'
              }
              autosize
              minRows={2}
              {...form.getInputProps('redirectUris')}
            />
            <Textarea
              label="Post-logout redirect URIs"
              description="Where users may return after signing out, one per line."
              autosize
              minRows={1}
              {...form.getInputProps('postLogoutRedirectUris')}
            />
            <Textarea
              label="Allowed origins"
              description="Browser apps that call the token, userinfo and revocation endpoints (CORS), one origin per line, like https://app.example."
              autosize
              minRows={1}
              {...form.getInputProps('allowedOrigins')}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                Discard changes
              </Button>
              <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
                Save sign-in settings
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
