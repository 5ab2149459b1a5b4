import { useState } from 'react';
import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconLink } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { ADMIN_PORTAL_LINK_DEFAULT_HOURS, ADMIN_PORTAL_LINK_MAX_HOURS } from '../../../shared/schemas/admin-portal';
import { ApiError } from '../../lib/api-client';
import { usePlatformApi } from '../../lib/platform-api';
import { CopyField } from '../CopyField';
import { OrganizationSelect } from './OrganizationSelect';
import type { OrganizationOption } from './SsoConnectionForm';

/**
 * "Create setup link": a one-time link to the self-serve setup portal of one organization, for its IT
 * admin (POST …/organizations/{organization_id}/admin-portal-links). Shown this once, with a copy button.
 */
export function SetupLinkModal({
  projectId,
  opened,
  organizations,
  organizationsTotal,
  onClose,
}: {
  projectId: string;
  opened: boolean;
  organizations: OrganizationOption[];
  organizationsTotal: number;
  onClose(): void;
}) {
  const api = usePlatformApi();
  const [organizationId, setOrganizationId] = useState<string | null>(organizations.length === 1 ? organizations[0]!.value : null);
  const [hours, setHours] = useState<number>(ADMIN_PORTAL_LINK_DEFAULT_HOURS);
  const create = useMutation({
    mutationFn: () =>
      api.session<{ url: string; expires_at: string }>('POST', `/projects/${encodeURIComponent(projectId)}/organizations/${encodeURIComponent(organizationId!)}/admin-portal-links`, { expires_in_hours: hours }),
  });
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Create setup link" centered size="lg" closeOnClickOutside={!create.data}>
      {create.data ? (
        <Stack gap="md">
          <Alert variant="light" color="orange" icon={<IconAlertTriangle size={18} />} title="Shown only once">
            Send this link to the organization&rsquo;s IT admin. It opens once, until {new Date(create.data.expires_at).toLocaleString()}, and reaches only this organization&rsquo;s single sign-on setup.
          </Alert>
          <CopyField label="Setup link" value={create.data.url} copyLabel="Copy the setup link" wrap />
          <Group justify="flex-end">
            <Button onClick={close}>I have copied the link</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <Text size="sm">The customer&rsquo;s IT admin opens the link without an account and sets up their organization&rsquo;s SAML or OpenID Connect connection, verifies its domains, tests a sign-in and creates the SCIM token, with step-by-step guides for their identity provider.</Text>
          {create.isError && (
            <Alert color="red" variant="light" role="alert">
              {create.error instanceof ApiError && create.error.detail ? create.error.detail : 'The link could not be created. Try again.'}
            </Alert>
          )}
          <OrganizationSelect projectId={projectId} initial={organizations} total={organizationsTotal} value={organizationId} onChange={setOrganizationId} />
          <NumberInput label="Valid for (hours)" min={1} max={ADMIN_PORTAL_LINK_MAX_HOURS} value={hours} onChange={(value) => setHours(typeof value === 'number' ? value : ADMIN_PORTAL_LINK_DEFAULT_HOURS)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button leftSection={<IconLink size={16} />} onClick={() => create.mutate()} disabled={!organizationId} loading={create.isPending}>
              Create link
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
