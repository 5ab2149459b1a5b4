import { useState } from 'react';
import { Avatar, Badge, Button, Card, Group, Loader, Pagination, Paper, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBuilding, IconPlus, IconSearch } from '@tabler/icons-react';
import { useSearchParams } from 'react-router-dom';
import type { Project } from '../../../shared/schemas/projects';
import { roleAllows } from '../../../shared/schemas/teams';
import { formatDate } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { SEARCH_DEBOUNCE_MS } from '../monitoring/ListToolbar';
import { EmptyState, ErrorState } from '../projects/states';
import { CreateOrganizationModal } from './CreateOrganizationModal';
import { OrganizationDetail } from './OrganizationDetail';
import { OrganizationSettingsCard } from './OrganizationSettingsCard';

const PAGE_SIZE = 20;

/**
 * Project → Organizations: the project's end users' organizations (search, create, open one with
 * `?org=ID`), and the organization settings below the list.
 */
export function ProjectOrganizations({ project }: { project: Project }) {
  const [params, setParams] = useSearchParams();
  const open = params.get('org');
  const setOpen = (id: string | null) =>
    setParams(
      (next) => {
        if (id) next.set('org', id);
        else next.delete('org');
        return next;
      },
      { replace: false },
    );

  const manages = roleAllows(project.role, 'admin');
  if (open) return <OrganizationDetail projectId={project.id} manages={manages} organizationId={open} onBack={() => setOpen(null)} />;
  return (
    <Stack gap="lg">
      <OrganizationList projectId={project.id} manages={manages} onOpen={setOpen} />
      <OrganizationSettingsCard project={project} />
    </Stack>
  );
}

/** The project's organizations with their member counts, searched by name or slug; `manages` adds "New organization". */
export function OrganizationList({ projectId, manages, onOpen }: { projectId: string; manages: boolean; onOpen: (id: string) => void }) {
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const list = trpc.organizations.list.useQuery(
    { id: projectId, ...(q ? { q } : {}), limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    { placeholderData: (previous) => previous },
  );
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="organizations-heading">
      <Group justify="space-between" align="flex-start" gap="sm" mb="md">
        <div style={{ flex: '1 1 260px' }}>
          <Title order={2} fz="md" id="organizations-heading">
            Organizations
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            Your app&rsquo;s users belong to organizations, with a role in each. Their access tokens carry the active one.
          </Text>
        </div>
        {manages && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New organization
          </Button>
        )}
      </Group>
      <TextInput
        aria-label="Search organizations"
        placeholder="Search by name or slug"
        leftSection={<IconSearch size={16} />}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setPage(1);
        }}
        mb="md"
      />
      {list.isPending ? (
        <Loader size="sm" aria-label="Loading organizations" />
      ) : list.isError ? (
        <ErrorState title="Could not load the organizations" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.organizations.length === 0 ? (
        <EmptyState icon={<IconBuilding size={28} />} title={q ? 'No organization matches' : 'No organizations yet'}>
          {q ? 'Try another name or slug.' : 'Create one here, let your users create their own, or use the API with your project’s key.'}
        </EmptyState>
      ) : (
        <Stack gap="xs" role="list" aria-label="Organizations">
          {list.data.organizations.map((organization) => (
            <Paper key={organization.id} withBorder radius="md" role="listitem" aria-label={organization.name}>
              <UnstyledButton onClick={() => onOpen(organization.id)} p="sm" w="100%" aria-label={`Open ${organization.name}`}>
                <Group gap="sm" wrap="nowrap">
                  <Avatar src={organization.logo_url} radius="md" color="initials" name={organization.name} alt="" />
                  <div style={{ minWidth: 0, flex: 1 }}>
                    <Text fw={600} size="sm" truncate>
                      {organization.name}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {organization.slug} · created {formatDate(organization.created_at)}
                    </Text>
                  </div>
                  <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                    {organization.members_count === 1 ? '1 member' : `${organization.members_count} members`}
                  </Badge>
                </Group>
              </UnstyledButton>
            </Paper>
          ))}
          {pages > 1 && (
            <Group justify="center" mt="sm">
              <Pagination total={pages} value={page} onChange={setPage} size="sm" />
            </Group>
          )}
        </Stack>
      )}
      <CreateOrganizationModal
        projectId={projectId}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(organization) => {
          setCreating(false);
          onOpen(organization.id);
        }}
      />
    </Card>
  );
}
