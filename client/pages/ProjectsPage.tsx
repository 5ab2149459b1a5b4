import { useState } from 'react';
import { Button, Container, SimpleGrid, Tooltip } from '@mantine/core';
import { IconFolderPlus, IconPlus } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { Project } from '../../shared/schemas/projects';
import { useAuth } from '../auth/AuthProvider';
import { PageHeader } from '../components/PageHeader';
import { CreateProjectModal } from '../components/projects/CreateProjectModal';
import { DeleteProjectModal } from '../components/projects/DeleteProjectModal';
import { ProjectCard } from '../components/projects/ProjectCard';
import { VerifyNotice } from '../components/projects/VerifyNotice';
import { CardSkeletons, EmptyState, ErrorState, LoadingRegion, notifyFailure, useLoadErrorToast } from '../components/projects/states';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { PROJECT_TEXTS, TOASTS } from '../messages';

export function ProjectsPage() {
  const { user } = useAuth();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const projects = trpc.projects.list.useQuery(undefined, { select: (answer) => answer.projects });
  const remove = trpc.projects.delete.useMutation();
  const [deletingId, setDeletingId] = useState<string | null>(null);
  /** The project whose deletion waits for its name to be typed. */
  const [confirming, setConfirming] = useState<Project | null>(null);
  useLoadErrorToast(projects.errorUpdatedAt, projects.isError, TOASTS.projectsLoadFailed);

  const verified = Boolean(user?.is_verified);
  // ?create=1 (the dashboard's quick action) opens the modal straight away.
  const creating = searchParams.get('create') === '1';
  const setCreating = (open: boolean) =>
    setSearchParams(
      (params) => {
        if (open) params.set('create', '1');
        else params.delete('create');
        return params;
      },
      { replace: !open },
    );

  const onDelete = async (project: Project) => {
    setDeletingId(project.id);
    try {
      await remove.mutateAsync({ id: project.id });
      setConfirming(null);
      notify.success(TOASTS.projectDeleted);
      await Promise.all([utils.projects.list.invalidate(), utils.projects.dashboardStats.invalidate()]);
    } catch (error) {
      notifyFailure(TOASTS.projectDeleteFailed, error);
    } finally {
      setDeletingId(null);
    }
  };

  const createButton = (label: string) => (
    <Tooltip label={PROJECT_TEXTS.verifyToCreate} disabled={verified} withArrow>
      <Button
        leftSection={<IconPlus size={16} />}
        // Mantine's way to keep a tooltip on a disabled button: data-disabled instead of disabled.
        data-disabled={verified ? undefined : true}
        aria-disabled={verified ? undefined : true}
        onClick={(event) => (verified ? setCreating(true) : event.preventDefault())}
      >
        {label}
      </Button>
    </Tooltip>
  );

  let content;
  if (projects.isPending) {
    content = (
      <LoadingRegion label="Loading projects">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
          <CardSkeletons count={3} />
        </SimpleGrid>
      </LoadingRegion>
    );
  } else if (projects.isError) {
    content = <ErrorState title={TOASTS.projectsLoadFailed} error={projects.error} onRetry={() => void projects.refetch()} />;
  } else if (projects.data.length === 0) {
    content = (
      <EmptyState icon={<IconFolderPlus size={30} />} title="No projects yet" action={verified && createButton('Create project')}>
        Create your first project to get a project key, then make an API key so your backend can sign your users up
        and in.
      </EmptyState>
    );
  } else {
    content = (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {projects.data.map((project) => (
          <ProjectCard
            key={project.id}
            project={project}
            deleting={deletingId === project.id}
            onDelete={() => setConfirming(project)}
          />
        ))}
      </SimpleGrid>
    );
  }

  return (
    <Container size="lg" py="xl">
      <PageHeader
        title="Projects"
        description="Each project has its own users, keys and environment."
        actions={createButton('Create project')}
      />
      <VerifyNotice />
      {content}
      <CreateProjectModal
        opened={creating && verified}
        onClose={() => setCreating(false)}
        // A new project opens on its Overview, where the quickstart starts.
        onCreated={(project) => navigate(`/projects/${encodeURIComponent(project.id)}`)}
      />
      <DeleteProjectModal
        project={confirming}
        pending={confirming !== null && deletingId === confirming.id}
        onConfirm={() => confirming && void onDelete(confirming)}
        onClose={() => setConfirming(null)}
      />
    </Container>
  );
}
