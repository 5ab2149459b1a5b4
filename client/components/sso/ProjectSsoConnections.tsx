import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconLink, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Project } from '../../../shared/schemas/projects';
import type { SsoConnection } from '../../../shared/schemas/sso';
import { roleAllows } from '../../../shared/schemas/teams';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { ConfirmModal } from '../ConfirmModal';
import { notifyFailure } from '../projects/states';
import { ScimTokenModal, type ShownScimToken } from './ScimTokenModal';
import { SetupLinkModal } from './SetupLinkModal';
import { SsoConnectionDetails } from './SsoConnectionDetails';
import { AddSsoConnectionModal, EditSsoConnectionModal } from './SsoConnectionForm';
import { ORGANIZATION_PAGE } from './OrganizationSelect';
import { ssoConnectionKeys, useSsoConnectionsApi } from './ssoConnectionsApi';

type Confirming = { kind: 'rotate' | 'revoke' | 'delete'; connection: SsoConnection };

const SSO_TYPE_LABELS: Record<SsoConnection['type'], string> = { saml: 'SAML', oidc: 'OIDC' };

/**
 * Project → Settings → Enterprise SSO: the project's SAML and OpenID Connect connections, one organization
 * each, with what their IdP needs, their domains' DNS proof and their SCIM token (shown once).
 */
export function ProjectSsoConnections({ project }: { project: Project }) {
  const api = useSsoConnectionsApi(project.id);
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ssoConnectionKeys.list(project.id), queryFn: api.list, retry: false });
  const organizations = trpc.organizations.list.useQuery({ id: project.id, limit: ORGANIZATION_PAGE });
  const [adding, setAdding] = useState(false);
  const [linking, setLinking] = useState(false);
  const [editing, setEditing] = useState<SsoConnection | null>(null);
  const [expanded, setExpanded] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [token, setToken] = useState<ShownScimToken | null>(null);
  // The server lets admins and owners change connections; viewers read them.
  const manages = roleAllows(project.role, 'admin');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ssoConnectionKeys.list(project.id) });
  const organizationOptions = (organizations.data?.organizations ?? []).map((organization) => ({ value: organization.id, label: organization.name }));
  const organizationsTotal = organizations.data?.total ?? 0;
  const organizationName = (id: string) => organizations.data?.organizations.find((organization) => organization.id === id)?.name;

  const act = useMutation({
    mutationFn: async ({ kind, connection }: Confirming) => {
      if (kind === 'rotate') return api.createScimToken(connection.id);
      if (kind === 'revoke') return api.revokeScimToken(connection.id);
      return api.remove(connection.id);
    },
  });
  const onConfirm = async () => {
    if (!confirming) return;
    try {
      const answer = await act.mutateAsync(confirming);
      await refresh();
      if (confirming.kind === 'rotate' && 'token' in answer) setToken({ connectionName: confirming.connection.name, ...answer });
      else notify.success(confirming.kind === 'revoke' ? 'SCIM token revoked' : 'SSO connection deleted');
      setConfirming(null);
    } catch (error) {
      notifyFailure(confirming.kind === 'delete' ? 'Could not delete the SSO connection' : 'Could not change the SCIM token', error);
    }
  };

  const connections = list.data?.connections ?? [];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="sso-connections-heading">
      <Group justify="space-between" align="flex-start" gap="sm" mb="md">
        <div style={{ flex: '1 1 260px' }}>
          <Title order={3} fz="md" id="sso-connections-heading">
            Enterprise connections
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            Connect one of your organizations to its company&rsquo;s identity provider (Okta, Microsoft Entra ID, Google Workspace, any SAML 2.0 or OpenID Connect IdP). Its people sign in there and join the organization; with a SCIM token the IdP also adds and removes them.
          </Text>
        </div>
        {manages && (
          <Group gap="xs">
            <Button variant="default" leftSection={<IconLink size={16} />} onClick={() => setLinking(true)} disabled={organizations.isPending || organizationOptions.length === 0}>
              Create setup link
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} disabled={list.isLoading || list.isError || organizations.isPending}>
              Add connection
            </Button>
          </Group>
        )}
      </Group>
      {!manages && (
        <Alert variant="light" color="gray" mb="md">
          You are a viewer on this project: an admin or owner adds and changes enterprise connections.
        </Alert>
      )}
      {list.isLoading ? (
        <Loader size="sm" aria-label="Loading SSO connections" />
      ) : list.isError ? (
        <Group gap="sm">
          <Text size="sm" c="red" role="alert">
            Could not load the SSO connections.
          </Text>
          <Button size="xs" variant="default" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Group>
      ) : connections.length === 0 ? (
        <Paper withBorder radius="md" p="md" style={{ borderStyle: 'dashed' }}>
          <Text size="sm" c="dimmed" ta="center">
            No enterprise connections yet. Add one when a customer asks for sign-in with their company&rsquo;s identity provider.
          </Text>
        </Paper>
      ) : (
        <Stack gap="xs" role="list" aria-label="SSO connections">
          {connections.map((connection) => (
            <ConnectionRow
              key={connection.id}
              connection={connection}
              organizationName={
                organizations.data ? (organizationName(connection.organization_id) ?? <OrganizationNameOf projectId={project.id} organizationId={connection.organization_id} />) : connection.organization_id
              }
              open={expanded === connection.id}
              onToggle={() => setExpanded(expanded === connection.id ? null : connection.id)}
            >
              <SsoConnectionDetails
                projectId={project.id}
                connection={connection}
                manages={manages}
                onToken={(created) => setToken({ connectionName: connection.name, ...created })}
                onConfirm={(kind) => setConfirming({ kind, connection })}
                onEdit={() => setEditing(connection)}
              />
            </ConnectionRow>
          ))}
        </Stack>
      )}
      <AddSsoConnectionModal
        projectId={project.id}
        opened={adding}
        organizations={organizationOptions}
        organizationsTotal={organizationsTotal}
        organizationsFailed={organizations.isError}
        onClose={() => setAdding(false)}
        onCreated={(created) => {
          notify.success('SSO connection added: give its values to the identity provider');
          setExpanded(created.id);
        }}
      />
      {linking && <SetupLinkModal projectId={project.id} opened={linking} organizations={organizationOptions} organizationsTotal={organizationsTotal} onClose={() => setLinking(false)} />}
      <EditSsoConnectionModal projectId={project.id} connection={editing} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={confirming !== null}
        title={confirming?.kind === 'rotate' ? 'Rotate the SCIM token' : confirming?.kind === 'revoke' ? 'Revoke the SCIM token' : 'Delete SSO connection'}
        confirmLabel={confirming?.kind === 'rotate' ? 'Rotate' : confirming?.kind === 'revoke' ? 'Revoke' : 'Delete'}
        pending={act.isPending}
        typedConfirmation={confirming?.kind === 'delete' ? confirming.connection.name : undefined}
        onConfirm={() => void onConfirm()}
        onClose={() => setConfirming(null)}
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {confirming?.kind === 'rotate'
            ? `The identity provider's current SCIM token for ${confirming.connection.name} stops working at once. Put the new one in its provisioning settings right away.`
            : confirming?.kind === 'revoke'
              ? `The identity provider can no longer provision people through ${confirming.connection.name}. The people it provisioned keep their accounts.`
              : `Nobody signs in through ${confirming?.connection.name ?? ''} any more and its SCIM token stops working. Its people keep their accounts and memberships.`}
        </Text>
      </ConfirmModal>
      <ScimTokenModal
        shown={token}
        onClose={() => {
          setToken(null);
          void refresh();
        }}
      />
    </Card>
  );
}

/** The name of an organization past the first page of the list (its id until it is read). */
function OrganizationNameOf({ projectId, organizationId }: { projectId: string; organizationId: string }) {
  const organization = trpc.organizations.get.useQuery({ id: projectId, organization_id: organizationId });
  return <>{organization.data?.name ?? organizationId}</>;
}

function ConnectionRow({ connection, organizationName, open, onToggle, children }: { connection: SsoConnection; organizationName: React.ReactNode; open: boolean; onToggle(): void; children: React.ReactNode }) {
  const detailsId = `sso-connection-${connection.id}`;
  return (
    <Paper withBorder p="sm" radius="md" role="listitem" aria-label={connection.name}>
      {/* At 375 px the details button goes below rather than being cut off. */}
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
        <Stack gap={6} style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Group gap="xs">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {connection.name}
            </Text>
            <Badge size="sm" variant="light" color="blue">
              {SSO_TYPE_LABELS[connection.type]}
            </Badge>
            <Badge size="sm" variant="light" color={connection.enabled ? 'teal' : 'gray'}>
              {connection.enabled ? 'Enabled' : 'Disabled'}
            </Badge>
            {connection.enforce && (
              <Badge size="sm" variant="light" color="orange">
                SSO required
              </Badge>
            )}
            {connection.scim.enabled && (
              <Badge size="sm" variant="light" color="violet">
                SCIM on
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Organization: {organizationName}
          </Text>
          <Group gap={6} aria-label={`Domains of ${connection.name}`}>
            {connection.domains.length === 0 ? (
              <Text size="xs" c="dimmed">
                No domains
              </Text>
            ) : (
              connection.domains.map((domain) => (
                <Badge
                  key={domain.domain}
                  size="sm"
                  variant="light"
                  color={domain.verified ? 'teal' : 'orange'}
                  tt="none"
                  fw={500}
                  h="auto"
                  maw="100%"
                  styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
                >
                  {domain.domain} · {domain.verified ? 'verified' : 'unverified'}
                </Badge>
              ))
            )}
          </Group>
        </Stack>
        <Button
          size="xs"
          variant="subtle"
          color="gray"
          rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
          onClick={onToggle}
          aria-expanded={open}
          aria-controls={detailsId}
          aria-label={`${open ? 'Hide details' : 'Details'} of ${connection.name}`}
        >
          {open ? 'Hide details' : 'Details'}
        </Button>
      </Group>
      {open && (
        <div id={detailsId} style={{ marginTop: 'var(--mantine-spacing-md)' }}>
          {children}
        </div>
      )}
    </Paper>
  );
}
