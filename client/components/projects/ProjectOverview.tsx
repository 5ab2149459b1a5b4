import { Grid, Stack } from '@mantine/core';
import type { Project } from '../../../shared/schemas/projects';
import { ProjectActivity } from './ProjectActivity';
import { ProjectFacts } from './ProjectFacts';
import { ProjectIntegration } from './ProjectIntegration';
import { ProjectQuickstart } from './quickstart/ProjectQuickstart';

/** The project detail's Overview tab: the quickstart, then the project's facts and activity. */
export function ProjectOverview({ project }: { project: Project }) {
  return (
    <Grid gutter="lg">
      <Grid.Col span={12}>
        <ProjectQuickstart project={project} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="lg">
          <ProjectFacts project={project} />
          <ProjectIntegration project={project} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <ProjectActivity project={project} />
      </Grid.Col>
    </Grid>
  );
}
