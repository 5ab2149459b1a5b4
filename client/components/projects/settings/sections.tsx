import type { ReactNode } from 'react';
import { Card, Skeleton } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBrush,
  IconLogin2,
  IconMail,
  IconRobot,
  IconSettings,
  IconShieldCheck,
  IconShieldLock,
  IconUsersGroup,
  IconWebhook,
  type Icon,
} from '@tabler/icons-react';
import type { ProjectSettings } from '../../../../shared/schemas/project-settings';
import type { Project } from '../../../../shared/schemas/projects';
import { trpc } from '../../../lib/trpc';
import { SETTINGS_TEXTS } from '../../../messages';
import { ProjectSignInMethods } from '../ProjectSignInMethods';
import { ProjectConnections } from '../ProjectConnections';
import { ProjectEndUserMails } from '../ProjectEndUserMails';
import { ProjectEndUserRules } from '../ProjectEndUserRules';
import { ProjectMachineClients } from '../ProjectMachineClients';
import { ProjectSignInSettings } from '../ProjectSignInSettings';
import { ProjectTeam } from '../ProjectTeam';
import { ProjectWebhooks } from '../ProjectWebhooks';
import { ProjectSsoConnections } from '../../sso/ProjectSsoConnections';
import { ErrorState } from '../states';
import { BrandingSection } from './BrandingSection';
import { DangerSection } from './DangerSection';
import { GeneralSection } from './GeneralSection';
import { useStoreProject } from './useStoreProject';

export interface SettingsSection {
  /** The last part of its address: /projects/{id}/settings/{id}. */
  id: string;
  label: string;
  icon: Icon;
  /** One line under the section's title. */
  description: string;
  /** Viewers see it read-only (its controls disabled); false for a section that handles viewers itself. */
  readOnlyForViewers: boolean;
  render(project: Project): ReactNode;
}

/** The project's settings for its end users (GET /api/v1/projects/{id}/settings), loaded for the sections that edit them. */
function WithEndUserSettings({ project, children }: { project: Project; children(settings: ProjectSettings, readOnly: boolean): ReactNode }) {
  const settings = trpc.projectSettings.get.useQuery({ id: project.id });
  if (settings.isPending) {
    return (
      <Card withBorder radius="md" padding="lg" aria-busy="true" aria-label="Loading end-user settings">
        <Skeleton h={16} w="40%" mb="md" />
        <Skeleton h={120} />
      </Card>
    );
  }
  if (settings.isError) return <ErrorState title={SETTINGS_TEXTS.loadFailed} error={settings.error} onRetry={() => void settings.refetch()} />;
  return <>{children(settings.data, project.role === 'viewer')}</>;
}

function SignInSection({ project }: { project: Project }) {
  const store = useStoreProject();
  return (
    <>
      <ProjectSignInSettings project={project} onSaved={store} />
      <WithEndUserSettings project={project}>{(settings, readOnly) => <ProjectSignInMethods projectId={project.id} settings={settings} readOnly={readOnly} />}</WithEndUserSettings>
      <ProjectConnections project={project} />
    </>
  );
}

/**
 * The sections of a project's settings, in navigation order. One more section is one more entry here:
 * the navigation, the routes (/projects/{id}/settings/{id}) and the small-screen select follow.
 */
export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  {
    id: 'general',
    label: 'General',
    icon: IconSettings,
    description: 'The project’s name, description, website and environment.',
    readOnlyForViewers: true,
    render: (project) => <GeneralSection project={project} />,
  },
  {
    id: 'sign-in',
    label: 'Sign-in methods & connections',
    icon: IconLogin2,
    description: 'OpenID Connect: where users return after signing in, and sign-in with GitHub, Google, Microsoft or another provider.',
    readOnlyForViewers: true,
    render: (project) => <SignInSection project={project} />,
  },
  {
    id: 'enterprise-sso',
    label: 'Enterprise SSO',
    icon: IconShieldLock,
    description: 'Your organizations’ own identity providers (SAML 2.0, OpenID Connect): their domains, and SCIM provisioning.',
    // Not the section's disabled fieldset: a viewer still opens a connection's details (ProjectSsoConnections hides the rest).
    readOnlyForViewers: false,
    render: (project) => <ProjectSsoConnections project={project} />,
  },
  {
    id: 'branding',
    label: 'Branding & hosted pages',
    icon: IconBrush,
    description: 'The hosted pages’ logo and colour, with a live preview, and their wording in each language.',
    readOnlyForViewers: true,
    render: (project) => <WithEndUserSettings project={project}>{(settings, readOnly) => <BrandingSection project={project} settings={settings} readOnly={readOnly} />}</WithEndUserSettings>,
  },
  {
    id: 'mails',
    label: 'Mails',
    icon: IconMail,
    description: 'The verification, password reset and notice mails your users receive.',
    readOnlyForViewers: true,
    render: (project) => (
      <WithEndUserSettings project={project}>
        {(settings, readOnly) => <ProjectEndUserMails projectId={project.id} projectName={project.name} settings={settings} readOnly={readOnly} />}
      </WithEndUserSettings>
    ),
  },
  {
    id: 'webhooks',
    label: 'Webhooks',
    icon: IconWebhook,
    description: 'Signed HTTP calls to your endpoints when something happens to your users.',
    // Not the section's disabled fieldset: a viewer still opens the deliveries and the catalogue (ProjectWebhooks disables the rest).
    readOnlyForViewers: false,
    render: (project) => <ProjectWebhooks project={project} />,
  },
  {
    id: 'machine-clients',
    label: 'Machine clients',
    icon: IconRobot,
    description: 'Backends and jobs that get access tokens of their own with a client id and secret (client credentials).',
    // Not the section's disabled fieldset: ProjectMachineClients disables what a viewer may not do.
    readOnlyForViewers: false,
    render: (project) => <ProjectMachineClients project={project} />,
  },
  {
    id: 'rules',
    label: 'End-user rules',
    icon: IconShieldCheck,
    description: 'Passwords, token lifetimes, captcha, VPN policy and unverified sign-in for your users.',
    readOnlyForViewers: true,
    render: (project) => (
      <WithEndUserSettings project={project}>{(settings, readOnly) => <ProjectEndUserRules projectId={project.id} settings={settings} readOnly={readOnly} />}</WithEndUserSettings>
    ),
  },
  {
    id: 'team',
    label: 'Team',
    icon: IconUsersGroup,
    description: 'Who works on this project, with which role, and the invitations waiting.',
    readOnlyForViewers: false,
    render: (project) => <ProjectTeam project={project} />,
  },
  {
    id: 'danger',
    label: 'Danger zone',
    icon: IconAlertTriangle,
    description: 'Deactivate the project, or delete it with everything it holds.',
    readOnlyForViewers: true,
    render: (project) => <DangerSection project={project} />,
  },
];

export const sectionPath = (projectId: string, section: string) => `/projects/${encodeURIComponent(projectId)}/settings/${section}`;
