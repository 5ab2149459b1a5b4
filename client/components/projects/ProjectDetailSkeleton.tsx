import { Grid, Skeleton } from '@mantine/core';
import { LoadingRegion } from './states';

export function ProjectDetailSkeleton() {
  return (
    <LoadingRegion label="Loading project">
      <Skeleton h={14} w={160} radius="sm" mb="lg" />
      <Skeleton h={34} w={280} maw="100%" radius="sm" />
      <Skeleton h={16} w={360} maw="100%" radius="sm" mt="sm" mb="xl" />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Skeleton h={360} radius="md" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Skeleton h={360} radius="md" />
        </Grid.Col>
      </Grid>
    </LoadingRegion>
  );
}
