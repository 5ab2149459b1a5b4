import { Button, type ButtonProps } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useHosted } from '../HostedContext';
import { useHostedT } from '../../i18n/useHostedT';

/** "Back to {app}": the project's website (or where its app runs); nothing when the project has neither. */
export function BackToApp(props: ButtonProps) {
  const { project } = useHosted();
  const { t } = useHostedT();
  if (!project.app_url) return null;
  return (
    <Button component="a" href={project.app_url} variant="default" leftSection={<IconArrowLeft size={16} />} {...props}>
      {t('common.backToApp', { app: project.name })}
    </Button>
  );
}
