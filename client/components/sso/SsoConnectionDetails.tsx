import { useState } from 'react';
import { Alert, Button, Divider, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { IconKey, IconPencil, IconRefresh, IconTrash, IconWorldCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SsoConnection } from '../../../shared/schemas/sso';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { CopyField } from '../CopyField';
import { notifyFailure } from '../projects/states';
import { ssoConnectionKeys, useSsoConnectionsApi, type ScimToken } from './ssoConnectionsApi';

/**
 * One connection opened: the values its IdP needs, its domains' DNS proof with "Check now", on/off,
 * its SCIM token (create, rotate, revoke) and its removal. `manages` (admins, owners) shows the controls.
 */
export function SsoConnectionDetails({
  projectId,
  connection,
  manages,
  onToken,
  onConfirm,
  onEdit,
}: {
  projectId: string;
  connection: SsoConnection;
  manages: boolean;
  onToken(created: ScimToken): void;
  onConfirm(kind: 'rotate' | 'revoke' | 'delete'): void;
  onEdit(): void;
}) {
  const api = useSsoConnectionsApi(projectId);
  const queryClient = useQueryClient();
  const [checked, setChecked] = useState<string | null>(null);
  const store = (changed: SsoConnection) =>
    queryClient.setQueryData<{ connections: SsoConnection[] }>(ssoConnectionKeys.list(projectId), (old) => old && { connections: old.connections.map((one) => (one.id === changed.id ? changed : one)) });

  const toggle = useMutation({ mutationFn: (enabled: boolean) => api.update(connection.id, { enabled }) });
  const verify = useMutation({ mutationFn: () => api.verifyDomains(connection.id) });
  const createToken = useMutation({ mutationFn: () => api.createScimToken(connection.id) });
  const unverified = connection.domains.filter((domain) => !domain.verified);

  const onToggle = async (enabled: boolean) => {
    try {
      store(await toggle.mutateAsync(enabled));
      notify.success(enabled ? 'SSO connection enabled' : 'SSO connection disabled');
    } catch (error) {
      notifyFailure('Could not change the SSO connection', error);
    }
  };
  const onCheck = async () => {
    setChecked(null);
    try {
      const answer = await verify.mutateAsync();
      store(answer);
      const still = answer.domains.filter((domain) => !domain.verified).map((domain) => domain.domain);
      setChecked(still.length === 0 ? 'Every domain is verified: its sign-ins go to this connection.' : `No matching TXT record yet for ${still.join(', ')}. DNS changes can take a while to show; check again later.`);
    } catch (error) {
      notifyFailure('Could not check the domains', error);
    }
  };
  const onCreateToken = async () => {
    try {
      onToken(await createToken.mutateAsync());
    } catch (error) {
      notifyFailure('Could not create the SCIM token', error);
    }
  };

  return (
    <Stack gap="md">
      <Stack gap="xs">
        <Title order={4} fz="sm">
          Give your identity provider
        </Title>
        {connection.saml ? (
          <>
            <CopyField label="Entity ID (audience)" value={connection.saml.sp_entity_id} copyLabel="Copy the entity ID" wrap />
            <CopyField label="ACS URL (single sign-on URL)" value={connection.saml.acs_url} copyLabel="Copy the ACS URL" wrap />
            <CopyField label="SP metadata URL" value={connection.saml.sp_metadata_url} copyLabel="Copy the SP metadata URL" wrap />
            {connection.saml.sp_certificate && <CopyField label="SP certificate (signing and encryption)" value={connection.saml.sp_certificate} copyLabel="Copy the SP certificate" wrap />}
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Identity provider {connection.saml.idp_entity_id}
              {connection.saml.idp_certificates.map((certificate) => ` · certificate valid until ${formatDate(certificate.not_after)}`).join('')}
            </Text>
          </>
        ) : connection.oidc ? (
          <>
            <CopyField label="Callback URL (redirect URI)" value={connection.oidc.callback_url} copyLabel="Copy the callback URL" wrap />
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Issuer {connection.oidc.issuer} · client ID {connection.oidc.client_id}
            </Text>
          </>
        ) : null}
      </Stack>

      <Divider />
      <Stack gap="xs">
        <Title order={4} fz="sm">
          Domain verification
        </Title>
        {connection.domains.length === 0 ? (
          <Text size="sm" c="dimmed">
            No domains: sign-ins reach this connection only by its id, not by the address&rsquo;s domain.
          </Text>
        ) : unverified.length === 0 ? (
          <Text size="sm">Every domain is verified.</Text>
        ) : (
          <>
            <Text size="sm">
              A domain routes sign-ins only once proven: publish this TXT record in its DNS, then check.
            </Text>
            {unverified.map((domain) => (
              <Stack key={domain.domain} gap={6} aria-label={`DNS record for ${domain.domain}`} role="group">
                <Text size="sm" fw={600}>
                  {domain.domain}
                </Text>
                <CopyField label="TXT record name" value={domain.txt_record_name} copyLabel={`Copy the TXT record name for ${domain.domain}`} compact />
                <CopyField label="TXT record value" value={domain.txt_record_value} copyLabel={`Copy the TXT record value for ${domain.domain}`} compact />
              </Stack>
            ))}
            {manages && (
              <Group>
                <Button size="xs" variant="light" leftSection={<IconWorldCheck size={14} />} loading={verify.isPending} onClick={() => void onCheck()}>
                  Check now
                </Button>
              </Group>
            )}
          </>
        )}
        {checked && (
          <Text size="sm" role="status">
            {checked}
          </Text>
        )}
      </Stack>

      <Divider />
      <Stack gap="xs">
        <Title order={4} fz="sm">
          SCIM provisioning
        </Title>
        <Text size="sm" c="dimmed">
          {connection.scim.enabled
            ? `On: the identity provider adds, changes and removes this organization's people with its token (made ${formatDate(connection.scim.token_created_at)}).`
            : 'Off. Create a token to let the identity provider (Okta, Microsoft Entra ID) add and remove this organization’s people ahead of their first sign-in.'}
        </Text>
        <CopyField label="SCIM base URL" value={connection.scim.base_url} copyLabel="Copy the SCIM base URL" wrap />
        {manages && (
          <Group gap="xs">
            {connection.scim.enabled ? (
              <>
                <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={() => onConfirm('rotate')}>
                  Rotate
                </Button>
                <Button size="xs" variant="light" color="red" onClick={() => onConfirm('revoke')}>
                  Revoke
                </Button>
              </>
            ) : (
              <Button size="xs" variant="light" leftSection={<IconKey size={14} />} loading={createToken.isPending} onClick={() => void onCreateToken()}>
                Create SCIM token
              </Button>
            )}
          </Group>
        )}
      </Stack>

      <Divider />
      {manages ? (
        <Group justify="space-between" gap="sm">
          <Switch
            label="Enabled"
            aria-label={`Enabled: ${connection.name}`}
            checked={connection.enabled}
            disabled={toggle.isPending}
            onChange={(event) => void onToggle(event.currentTarget.checked)}
          />
          <Group gap="xs">
            <Button size="xs" variant="default" leftSection={<IconPencil size={14} />} onClick={onEdit}>
              Edit
            </Button>
            <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={() => onConfirm('delete')}>
              Delete connection
            </Button>
          </Group>
        </Group>
      ) : (
        <Alert variant="light" color="gray">
          {connection.enabled ? 'This connection is enabled.' : 'This connection is disabled: nobody signs in through it.'}
        </Alert>
      )}
    </Stack>
  );
}
