import { Alert, Center, Container, Loader } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useParams, useSearchParams } from 'react-router-dom';
import { isEffectiveAdmin } from '../../shared/schemas/user';
import { useAuth } from '../auth/AuthProvider';
import { useAdminUserSource, useProjectUserSource } from '../components/user-page/source';
import { UserView } from '../components/user-page/UserView';
import { errorMessage } from '../lib/errors';
import { trpc } from '../lib/trpc';
import { TOASTS } from '../messages';

function AdminUser({ userId }: { userId: string }) {
  const source = useAdminUserSource();
  return <UserView source={source} userId={userId} />;
}

/** Admin → Users → a platform account (/admin/users/:userId); admins only, as the admin area. */
export function AdminUserPage() {
  const { userId = '' } = useParams();
  const { user } = useAuth();
  return (
    <Container size="lg" py="xl">
      {user && isEffectiveAdmin(user) ? (
        <AdminUser userId={userId} />
      ) : (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Not authorised">
          You are not authorised to view the admin area. It is only available to administrators.
        </Alert>
      )}
    </Container>
  );
}

function ProjectUser({ projectId, userId, readOnly }: { projectId: string; userId: string; readOnly: boolean }) {
  const source = useProjectUserSource(projectId, readOnly);
  return <UserView source={source} userId={userId} />;
}

/** A project's Monitoring → Users → an end user (/monitoring/users/:userId?project=ID); the project's viewers read, its admins and owner act. */
export function ProjectUserPage() {
  const { userId = '' } = useParams();
  const [params] = useSearchParams();
  const projectId = params.get('project') ?? '';
  const projects = trpc.projects.list.useQuery(undefined, { select: (answer) => answer.projects });
  const project = projects.data?.find((candidate) => candidate.id === projectId);
  let body;
  if (projects.isPending) {
    body = (
      <Center py="xl">
        <Loader aria-label="Loading projects" />
      </Center>
    );
  } else if (!project) {
    body = (
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Project not found">
        {projects.error ? errorMessage(projects.error, TOASTS.projectsLoadFailed) : 'This project does not exist or you are not on its team.'}
      </Alert>
    );
  } else {
    body = <ProjectUser projectId={project.id} userId={userId} readOnly={project.role === 'viewer'} />;
  }
  return (
    <Container size="lg" py="xl">
      {body}
    </Container>
  );
}
