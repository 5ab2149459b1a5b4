import { useState } from 'react';
import { Alert, Button, Card, Code, Container, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle, IconKey, IconPlus } from '@tabler/icons-react';
import { z } from 'zod';
import { CreateApiKeyInputSchema, type ApiKey } from '../../shared/schemas/projects';
import { useAuth } from '../auth/AuthProvider';
import { ConfirmModal } from '../components/ConfirmModal';
import { PageHeader } from '../components/PageHeader';
import { ApiKeyList } from '../components/projects/ApiKeyList';
import { ProjectScoped } from '../components/projects/ProjectScoped';
import { SecretModal } from '../components/projects/SecretModal';
import { VerifyNotice } from '../components/projects/VerifyNotice';
import { EmptyState, ErrorState, LoadingRegion, notifyFailure, useLoadErrorToast } from '../components/projects/states';
import { resolver } from '../forms';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { PROJECT_TEXTS } from '../messages';

const KeyFormSchema = z.object({ name: CreateApiKeyInputSchema.shape.name });

function KeysSkeleton() {
  return (
    <LoadingRegion label="Loading API keys">
      <Stack gap="sm">
        {[0, 1].map((index) => (
          <Card key={index} withBorder radius="md" padding="md" aria-hidden>
            <Group justify="space-between">
              <Stack gap={8}>
                <Skeleton h={16} w={140} radius="sm" />
                <Skeleton h={20} w={120} radius="sm" />
              </Stack>
              <Skeleton h={28} w={80} radius="sm" />
            </Group>
          </Card>
        ))}
      </Stack>
    </LoadingRegion>
  );
}

function ProjectKeys({ projectId, verified, readOnly }: { projectId: string; verified: boolean; readOnly: boolean }) {
  const utils = trpc.useUtils();
  const keys = trpc.projects.apiKeys.useQuery({ id: projectId }, { select: (answer) => answer.api_keys });
  const create = trpc.projects.createApiKey.useMutation();
  const revoke = trpc.projects.revokeApiKey.useMutation();
  const [secret, setSecret] = useState<{ value: string; name: string } | null>(null);
  const [revokingId, setRevokingId] = useState<string | null>(null);
  /** The key whose revocation waits for its name to be typed. */
  const [confirming, setConfirming] = useState<ApiKey | null>(null);
  useLoadErrorToast(keys.errorUpdatedAt, keys.isError, PROJECT_TEXTS.apiKeysLoadFailed);

  const form = useForm({ mode: 'controlled', initialValues: { name: '' }, validate: resolver(KeyFormSchema) });

  const refresh = () => Promise.all([utils.projects.apiKeys.invalidate({ id: projectId }), utils.projects.dashboardStats.invalidate()]);

  const onCreate = form.onSubmit(async ({ name }) => {
    try {
      const created = await create.mutateAsync({ id: projectId, name: name.trim() });
      setSecret({ value: created.secret, name: created.name });
      form.reset();
      notify.success(PROJECT_TEXTS.apiKeyCreated);
      await refresh();
    } catch (error) {
      notifyFailure(PROJECT_TEXTS.apiKeyCreateFailed, error);
    }
  });

  const onRevoke = async (key: ApiKey) => {
    setRevokingId(key.id);
    try {
      await revoke.mutateAsync({ id: projectId, key_id: key.id });
      setConfirming(null);
      notify.success(PROJECT_TEXTS.apiKeyRevoked);
      await refresh();
    } catch (error) {
      notifyFailure(PROJECT_TEXTS.apiKeyRevokeFailed, error);
    } finally {
      setRevokingId(null);
    }
  };

  const active = keys.data?.filter((key) => !key.revoked_at).length ?? 0;

  return (
    <Stack gap="lg">
      {readOnly ? (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
          You are a viewer on this project: you see its keys, and an admin or owner creates and revokes them.
        </Alert>
      ) : (
        <Card withBorder radius="md" padding="lg" component="section" aria-label="Create an API key">
          <Title order={2} fz="md" mb={4}>
            Create an API key
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            Give each backend or environment its own key, so you can revoke one without touching the others.
          </Text>
          <form onSubmit={onCreate} noValidate>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                label="Key name"
                placeholder="e.g. Production backend"
                maxLength={100}
                style={{ flex: '1 1 240px' }}
                disabled={!verified}
                {...form.getInputProps('name')}
              />
              <Button
                type="submit"
                leftSection={<IconPlus size={16} />}
                loading={create.isPending}
                disabled={!verified}
                mt={{ base: 0, xs: 25 }}
                style={{ flex: '0 0 auto' }}
              >
                Create key
              </Button>
            </Group>
          </form>
        </Card>
      )}

      <section aria-labelledby="keys-heading">
        <Group justify="space-between" mb="sm">
          <Title order={2} fz="md" id="keys-heading">
            Keys
          </Title>
          {keys.data && keys.data.length > 0 && (
            <Text size="sm" c="dimmed">
              {active} active of {keys.data.length}
            </Text>
          )}
        </Group>
        {keys.isPending ? (
          <KeysSkeleton />
        ) : keys.isError ? (
          <ErrorState title={PROJECT_TEXTS.apiKeysLoadFailed} error={keys.error} onRetry={() => void keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <EmptyState icon={<IconKey size={28} />} title="No API keys yet">
            Create a key above. Your backend sends it in the X-API-Key header when it calls the public API.
          </EmptyState>
        ) : (
          <ApiKeyList keys={keys.data} onRevoke={readOnly ? undefined : (key) => setConfirming(key)} revokingId={revokingId} />
        )}
      </section>

      <SecretModal secret={secret?.value ?? null} keyName={secret?.name ?? ''} onClose={() => setSecret(null)} />
      <ConfirmModal
        opened={confirming !== null}
        title="Revoke API key"
        confirmLabel="Revoke key"
        pending={confirming !== null && revokingId === confirming.id}
        typedConfirmation={confirming?.name ?? ''}
        onConfirm={() => confirming && void onRevoke(confirming)}
        onClose={() => setConfirming(null)}
      >
        <Text size="sm">{PROJECT_TEXTS.revokeKeyConfirm}</Text>
      </ConfirmModal>
    </Stack>
  );
}

export function ApiKeysPage() {
  const { user } = useAuth();
  const content = (
    <ProjectScoped skeleton={<KeysSkeleton />} emptyText="API keys belong to a project. Create one, then come back to make its keys.">
      {(project) => (
        <>
          {!project.is_active && (
            <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
              This project is inactive: its keys are refused until you activate it again in the project's settings.
            </Alert>
          )}
          <ProjectKeys key={project.id} projectId={project.id} verified={Boolean(user?.is_verified)} readOnly={project.role === 'viewer'} />
        </>
      )}
    </ProjectScoped>
  );

  return (
    <Container size="lg" py="xl">
      <PageHeader
        title="API keys"
        description={
          <>
            Keys let your backend call the public API for one project: send one in the <Code>X-API-Key</Code> header.
          </>
        }
      />
      <VerifyNotice what="API keys" />
      {content}
    </Container>
  );
}
