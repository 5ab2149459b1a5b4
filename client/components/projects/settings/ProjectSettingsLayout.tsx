import { Alert, Grid, NavLink, Select, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, Route, Routes, useNavigate, useParams } from 'react-router-dom';
import type { Project } from '../../../../shared/schemas/projects';
import { SETTINGS_SECTIONS, sectionPath, type SettingsSection } from './sections';

/** The chosen section: its title, a line about it, and its one form. */
function SectionView({ project }: { project: Project }) {
  const { section: id = SETTINGS_SECTIONS[0]!.id } = useParams();
  const section = SETTINGS_SECTIONS.find((candidate) => candidate.id === id);
  if (!section) return <Navigate to={sectionPath(project.id, SETTINGS_SECTIONS[0]!.id)} replace />;
  const readOnly = section.readOnlyForViewers && project.role === 'viewer';
  return (
    <Stack gap="md">
      <div>
        <Title order={2} fz="lg" id="settings-section-heading">
          {section.label}
        </Title>
        <Text size="sm" c="dimmed" mt={2}>
          {section.description}
        </Text>
      </div>
      {readOnly && (
        <Alert variant="light" color="gray" title="Read-only access">
          You are a viewer on this project: its settings are shown, and an admin or owner changes them.
        </Alert>
      )}
      {/* A disabled fieldset turns off every control inside it, including the cards' own buttons. */}
      <fieldset disabled={readOnly} aria-label={`${section.label} settings`} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">{section.render(project)}</Stack>
      </fieldset>
    </Stack>
  );
}

function SectionNav({ project, current }: { project: Project; current: SettingsSection | undefined }) {
  const navigate = useNavigate();
  return (
    <>
      {/* Wide screens: a list on the left. */}
      <Stack component="nav" aria-label="Settings sections" gap={2} visibleFrom="sm">
        {SETTINGS_SECTIONS.map((section) => (
          <NavLink
            key={section.id}
            component={Link}
            to={sectionPath(project.id, section.id)}
            label={section.label}
            leftSection={<section.icon size={16} />}
            active={section.id === current?.id}
            aria-current={section.id === current?.id ? 'page' : undefined}
            color={section.id === 'danger' ? 'red' : undefined}
            style={{ borderRadius: 'var(--mantine-radius-sm)' }}
          />
        ))}
      </Stack>
      {/* 375 px: one select, so the section's form starts near the top. */}
      <Select
        hiddenFrom="sm"
        label="Settings section"
        data={SETTINGS_SECTIONS.map((section) => ({ value: section.id, label: section.label }))}
        value={current?.id ?? null}
        onChange={(value) => value && navigate(sectionPath(project.id, value))}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
    </>
  );
}

function SettingsFrame({ project }: { project: Project }) {
  // /settings itself shows the first section, without a redirect.
  const { section: id = SETTINGS_SECTIONS[0]!.id } = useParams();
  const current = SETTINGS_SECTIONS.find((section) => section.id === id);
  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, sm: 4, md: 3 }}>
        <SectionNav project={project} current={current} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 8, md: 9 }} miw={0}>
        <SectionView project={project} />
      </Grid.Col>
    </Grid>
  );
}

/**
 * A project's settings: a navigation of SETTINGS_SECTIONS on the left (a select at 375 px) and the
 * chosen section, each its own address (/projects/{id}/settings/{section}) so it can be linked and the
 * browser's back goes to the section before. Mounted under /projects/{id}/settings/*.
 */
export function ProjectSettingsLayout({ project }: { project: Project }) {
  return (
    <Routes>
      <Route index element={<SettingsFrame project={project} />} />
      <Route path=":section" element={<SettingsFrame project={project} />} />
      <Route path="*" element={<Navigate to={sectionPath(project.id, SETTINGS_SECTIONS[0]!.id)} replace />} />
    </Routes>
  );
}
