import { useState } from 'react';
import { Group, Text, ThemeIcon } from '@mantine/core';
import type { HostedProject } from '../../../shared/schemas/hosted';
import { useHostedT } from '../../i18n/useHostedT';

/** The project's logo (or its initial when it has none, or the image fails) and its name. */
export function BrandMark({ project }: { project: Pick<HostedProject, 'name' | 'logo_url'> }) {
  const [logoFailed, setLogoFailed] = useState(false);
  const { t } = useHostedT();
  const showLogo = project.logo_url && !logoFailed;
  return (
    <Group gap="sm" wrap="nowrap" miw={0}>
      {showLogo ? (
        <img
          src={project.logo_url!}
          alt={t('common.logoAlt', { app: project.name })}
          height={32}
          style={{ height: 32, width: 'auto', maxWidth: 120, objectFit: 'contain', display: 'block' }}
          onError={() => setLogoFailed(true)}
        />
      ) : (
        <ThemeIcon size={32} radius="md" aria-hidden>
          <Text fw={700} fz="md" c="inherit">
            {project.name.trim().charAt(0).toUpperCase() || '?'}
          </Text>
        </ThemeIcon>
      )}
      <Text fw={700} fz="lg" truncate data-testid="hosted-project-name">
        {project.name}
      </Text>
    </Group>
  );
}
