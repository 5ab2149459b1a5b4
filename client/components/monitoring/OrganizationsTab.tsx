import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { OrganizationDetail } from '../organizations/OrganizationDetail';
import { OrganizationList } from '../organizations/ProjectOrganizations';

/**
 * A project's organizations in monitoring: the list with member counts (searchable), and one opened
 * with its members, their roles and its invitations. Looking only: changes are made in Project →
 * Organizations, which the opened one links to.
 */
export function OrganizationsTab({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState<string | null>(null);
  if (!open) return <OrganizationList projectId={projectId} manages={false} onOpen={setOpen} />;
  const manageUrl = `/projects/${encodeURIComponent(projectId)}?${new URLSearchParams({ tab: 'organizations', org: open })}`;
  return (
    <OrganizationDetail
      projectId={projectId}
      manages={false}
      organizationId={open}
      onBack={() => setOpen(null)}
      people
      actions={
        <Button component={Link} to={manageUrl} variant="default" size="xs" leftSection={<IconSettings size={14} />}>
          Manage in the project
        </Button>
      }
    />
  );
}
