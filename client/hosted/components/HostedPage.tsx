import type { ComponentProps } from 'react';
import { useDocumentTitle } from '@mantine/hooks';
import { useHosted } from '../HostedContext';
import { BrandMark } from './BrandMark';
import { HostedShell } from './HostedShell';

/** A hosted page in the project's frame; the tab reads "{documentTitle} · {project name}". */
export function HostedPage({ documentTitle, ...shell }: Omit<ComponentProps<typeof HostedShell>, 'brand'> & { documentTitle: string }) {
  const { project } = useHosted();
  useDocumentTitle(`${documentTitle} · ${project.name}`);
  return <HostedShell brand={<BrandMark project={project} />} {...shell} />;
}
