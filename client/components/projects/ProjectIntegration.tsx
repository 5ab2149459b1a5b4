import { Card, Stack, Title } from '@mantine/core';
import type { Project } from '../../../shared/schemas/projects';
import { CopyField } from '../CopyField';

/** Where a project's public signing keys are published (its end users' access tokens verify against them). */
function jwksPath(projectKey: string): string {
  return `/public/api/v1/projects/${encodeURIComponent(projectKey)}/jwks.json`;
}

function absoluteUrl(path: string): string {
  return typeof window === 'undefined' ? path : new URL(path, window.location.origin).toString();
}

/** What a developer's backend needs to verify the project's end users: its key and its JWKS URL. */
export function ProjectIntegration({ project }: { project: Project }) {
  const jwks = absoluteUrl(jwksPath(project.project_key));
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="integration-heading">
      <Title order={2} fz="md" id="integration-heading" mb="md">
        Integration
      </Title>
      <Stack gap="md">
        <CopyField
          label="Project key"
          value={project.project_key}
          copyLabel="Copy project key"
          description="The audience (aud) of your end users' access tokens."
        />
        <CopyField
          label="JWKS URL"
          value={jwks}
          copyLabel="Copy JWKS URL"
          wrap
          description="Verify your end users' access tokens (ES256) with these public keys."
        />
      </Stack>
    </Card>
  );
}
