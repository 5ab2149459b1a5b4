import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Anchor, Avatar, Button, Card, Group, JsonInput, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconTrash } from '@tabler/icons-react';
import { ORGANIZATION_MESSAGES, type Organization } from '../../../shared/schemas/organizations';
import { errorCode, errorMessage } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { EmptyState, ErrorState } from '../projects/states';
import { organizationRules } from './CreateOrganizationModal';
import { jsonText, parseJsonObject } from './json';
import { OrganizationInvitations } from './OrganizationInvitations';
import { OrganizationMembers } from './OrganizationMembers';
import { ConfirmModal } from '../ConfirmModal';

/**
 * One organization: its details and metadata, members, invitations, and deleting it (for those who manage
 * the project's organizations). `people` shows only who is in it and who is invited (monitoring), with
 * `actions` beside its name.
 */
export function OrganizationDetail({
  projectId,
  manages,
  organizationId,
  onBack,
  people = false,
  actions,
}: {
  projectId: string;
  manages: boolean;
  organizationId: string;
  onBack: () => void;
  people?: boolean;
  actions?: ReactNode;
}) {
  const organization = trpc.organizations.get.useQuery({ id: projectId, organization_id: organizationId });

  const back = (
    <Anchor component="button" type="button" size="sm" onClick={onBack}>
      <Group gap={4} component="span">
        <IconArrowLeft size={14} /> All organizations
      </Group>
    </Anchor>
  );

  if (organization.isPending) return <Loader size="sm" aria-label="Loading the organization" />;
  if (organization.isError) {
    return (
      <Stack gap="md">
        {back}
        {errorCode(organization.error) === 'NOT_FOUND' ? (
          <EmptyState title="Organization not found" icon={<IconTrash size={28} />}>
            It may have been deleted.
          </EmptyState>
        ) : (
          <ErrorState title="Could not load the organization" error={organization.error} onRetry={() => void organization.refetch()} />
        )}
      </Stack>
    );
  }

  const data = organization.data;
  return (
    <Stack gap="lg">
      {back}
      <Group justify="space-between" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Avatar src={data.logo_url} radius="md" size="lg" color="initials" name={data.name} alt="" />
          <div style={{ minWidth: 0 }}>
            <Title order={2} fz="lg" style={{ overflowWrap: 'anywhere' }}>
              {data.name}
            </Title>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {data.slug} · {data.id} · created {formatDate(data.created_at)}
            </Text>
          </div>
        </Group>
        {actions}
      </Group>
      {!people && <OrganizationDetailsCard projectId={projectId} organization={data} manages={manages} />}
      <OrganizationMembers projectId={projectId} organization={data} manages={manages} />
      <OrganizationInvitations projectId={projectId} organization={data} manages={manages} />
      {manages && !people && <DeleteOrganizationCard projectId={projectId} organization={data} onDeleted={onBack} />}
    </Stack>
  );
}

function OrganizationDetailsCard({ projectId, organization, manages }: { projectId: string; organization: Organization; manages: boolean }) {
  const update = trpc.organizations.update.useMutation();
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const initial = {
    name: organization.name,
    slug: organization.slug,
    logo_url: organization.logo_url ?? '',
    public_metadata: jsonText(organization.public_metadata),
    private_metadata: jsonText(organization.private_metadata),
  };
  const form = useForm({
    mode: 'controlled',
    initialValues: initial,
    validate: {
      ...organizationRules,
      slug: (value: string) => (!value.trim() ? 'slug is required' : organizationRules.slug(value)),
      public_metadata: (value: string) => parseJsonObject(value, { name: 'public_metadata' }).error,
      private_metadata: (value: string) => parseJsonObject(value, { name: 'private_metadata' }).error,
    },
  });
  // A refetch after saving brings the server's values (a slug lowercased, metadata re-indented).
  useEffect(() => {
    form.setValues(initial);
    form.resetDirty(initial);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [organization.updated_at]);

  const onSubmit = form.onSubmit(async (values) => {
    setError(null);
    try {
      await update.mutateAsync({
        id: projectId,
        organization_id: organization.id,
        name: values.name.trim(),
        slug: values.slug.trim().toLowerCase(),
        logo_url: values.logo_url.trim() || null,
        public_metadata: parseJsonObject(values.public_metadata, { name: 'public_metadata' }).value ?? {},
        private_metadata: parseJsonObject(values.private_metadata, { name: 'private_metadata' }).value ?? {},
      });
      notify.success('Organization saved');
      await Promise.all([utils.organizations.get.invalidate({ id: projectId, organization_id: organization.id }), utils.organizations.list.invalidate({ id: projectId })]);
    } catch (failure) {
      const detail = errorMessage(failure, 'Could not save the organization');
      if (detail === ORGANIZATION_MESSAGES.slugTaken) form.setFieldError('slug', detail);
      else setError(detail);
    }
  });

  const json = (field: 'public_metadata' | 'private_metadata', label: string, description: string) => (
    <JsonInput
      label={label}
      description={description}
      placeholder='{"plan": "pro"}'
      autosize
      minRows={4}
      maxRows={14}
      formatOnBlur
      validationError={`${field} is not valid JSON`}
      readOnly={!manages}
      {...form.getInputProps(field)}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="organization-details-heading">
      <Title order={3} fz="md" id="organization-details-heading" mb="md">
        Details
      </Title>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label="Name" required readOnly={!manages} {...form.getInputProps('name')} />
            <TextInput label="Slug" required readOnly={!manages} description="Unique in the project; tokens carry it as org_slug" {...form.getInputProps('slug')} />
          </SimpleGrid>
          <TextInput label="Logo URL" placeholder="https://example.com/logo.png" readOnly={!manages} {...form.getInputProps('logo_url')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {json('public_metadata', 'Public metadata', 'A JSON object your app and the user can read (up to 8 KB)')}
            {json('private_metadata', 'Private metadata', 'A JSON object only your backend reads with its API key (up to 8 KB)')}
          </SimpleGrid>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          {manages && (
            <Group>
              <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
                Save changes
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}

function DeleteOrganizationCard({ projectId, organization, onDeleted }: { projectId: string; organization: Organization; onDeleted: () => void }) {
  const remove = trpc.organizations.delete.useMutation();
  const utils = trpc.useUtils();
  const [opened, setOpened] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onConfirm = async () => {
    setError(null);
    try {
      await remove.mutateAsync({ id: projectId, organization_id: organization.id });
      notify.success(`Organization ${organization.name} deleted`);
      setOpened(false);
      await utils.organizations.list.invalidate({ id: projectId });
      onDeleted();
    } catch (failure) {
      setError(errorMessage(failure, 'Could not delete the organization'));
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="organization-delete-heading" style={{ borderColor: 'var(--mantine-color-red-outline)' }}>
      <Group justify="space-between" gap="sm">
        <div style={{ flex: '1 1 260px' }}>
          <Title order={3} fz="md" id="organization-delete-heading">
            Delete organization
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            Removes its members and invitations. Sessions in it leave it at their next refresh. This cannot be undone.
          </Text>
        </div>
        <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setOpened(true)}>
          Delete organization
        </Button>
      </Group>
      <ConfirmModal
        opened={opened}
        title={`Delete ${organization.name}?`}
        typedConfirmation={organization.slug}
        confirmLabel="Delete organization"
        pending={remove.isPending}
        error={error}
        onConfirm={() => void onConfirm()}
        onClose={() => {
          setOpened(false);
          setError(null);
        }}
      >
        <Text size="sm">
          {organization.members_count === 1 ? '1 member loses' : `${organization.members_count} members lose`} their membership, and pending invitations stop working.
        </Text>
      </ConfirmModal>
    </Card>
  );
}
