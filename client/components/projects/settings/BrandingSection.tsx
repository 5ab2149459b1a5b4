import { useEffect } from 'react';
import { Box, Button, Card, ColorInput, Grid, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { z } from 'zod';
import { OptionalUrlSchema } from '../../../../shared/schemas/common';
import type { ProjectSettings } from '../../../../shared/schemas/project-settings';
import { AccentColorSchema, type Project } from '../../../../shared/schemas/projects';
import { resolver } from '../../../forms';
import { notify } from '../../../lib/notify';
import { trpc } from '../../../lib/trpc';
import { PROJECT_TEXTS } from '../../../messages';
import { CopyField } from '../../CopyField';
import { UnsavedChangesGuard } from '../../UnsavedChangesGuard';
import { ProjectWording } from '../ProjectWording';
import { notifyFailure } from '../states';
import { useStoreProject } from './useStoreProject';

const BrandingFormSchema = z.object({ logoUrl: OptionalUrlSchema, accentColor: AccentColorSchema });
type BrandingValues = { logoUrl: string; accentColor: string };

const valuesOf = (project: Project): BrandingValues => ({ logoUrl: project.logo_url ?? '', accentColor: project.accent_color ?? '' });

/** The platform's own accent, which the hosted pages use until the project sets one. */
const DEFAULT_ACCENT = '#3b5bdb';
const HEX = /^#[0-9a-f]{6}$/i;

/** Black or white, whichever reads better on the accent (WCAG relative luminance). */
function textOn(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

/** A sketch of the hosted sign-in page with the values being edited, saved or not. */
export function HostedPreview({ name, logoUrl, accentColor }: { name: string; logoUrl: string; accentColor: string }) {
  const accent = HEX.test(accentColor) ? accentColor : DEFAULT_ACCENT;
  let logo: string | null = null;
  try {
    logo = logoUrl && /^https?:$/.test(new URL(logoUrl).protocol) ? logoUrl : null;
  } catch {
    logo = null;
  }
  const field = (label: string) => (
    <Stack gap={4}>
      <Text size="xs" fw={500}>
        {label}
      </Text>
      <Box h={30} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, background: 'var(--mantine-color-body)' }} />
    </Stack>
  );
  return (
    <Box
      role="img"
      aria-label={`Preview of ${name}'s hosted sign-in page`}
      p="md"
      style={{ borderRadius: 8, background: 'light-dark(var(--mantine-color-gray-1), var(--mantine-color-dark-8))' }}
    >
      <Stack gap="sm" p="md" mx="auto" maw={300} style={{ borderRadius: 8, background: 'var(--mantine-color-body)', border: '1px solid var(--mantine-color-default-border)' }}>
        <Group justify="center" gap="xs">
          {logo ? (
            <img src={logo} alt="" style={{ maxHeight: 32, maxWidth: 120, objectFit: 'contain' }} />
          ) : (
            <Box w={32} h={32} style={{ borderRadius: 6, background: accent, color: textOn(accent), display: 'grid', placeItems: 'center', fontWeight: 700 }}>
              {name.trim().charAt(0).toUpperCase() || '?'}
            </Box>
          )}
        </Group>
        <Text ta="center" fw={700} size="sm">
          Sign in to {name}
        </Text>
        {field('Email')}
        {field('Password')}
        <Box py={6} ta="center" style={{ borderRadius: 4, background: accent, color: textOn(accent), fontSize: 13, fontWeight: 600 }}>
          Sign in
        </Box>
        <Text ta="center" size="xs">
          {/* The accent underlines the link: as text colour it would fail contrast on a dark page for many accents. */}
          No account? <span style={{ fontWeight: 600, textDecoration: 'underline', textDecorationColor: accent, textDecorationThickness: 2 }}>Sign up</span>
        </Text>
      </Stack>
    </Box>
  );
}

/** Settings → Branding & hosted pages: logo and accent colour with a live preview, and the pages' wording. */
export function BrandingSection({ project, settings, readOnly }: { project: Project; settings: ProjectSettings; readOnly: boolean }) {
  const update = trpc.projects.update.useMutation();
  const store = useStoreProject();
  const form = useForm<BrandingValues>({ mode: 'controlled', initialValues: valuesOf(project), validate: resolver(BrandingFormSchema) });

  const saved = JSON.stringify(valuesOf(project));
  useEffect(() => {
    form.setInitialValues(valuesOf(project));
    form.setValues(valuesOf(project));
    form.resetDirty();
  }, [saved]);

  const onSave = form.onSubmit(async (values) => {
    const parsed = BrandingFormSchema.parse(values);
    try {
      const next = await update.mutateAsync({ id: project.id, logo_url: parsed.logoUrl, accent_color: parsed.accentColor });
      notify.success(PROJECT_TEXTS.projectUpdated);
      await store(next);
    } catch (error) {
      notifyFailure(PROJECT_TEXTS.projectUpdateFailed, error);
    }
  });

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="branding-heading">
        <UnsavedChangesGuard when={!readOnly && form.isDirty()} onDiscard={() => form.reset()} />
        <Title order={3} fz="md" id="branding-heading">
          Hosted pages
        </Title>
        <Text size="sm" c="dimmed" mt={4} mb="md">
          Your users sign up, sign in and reset passwords on these pages, under your logo and colour.
        </Text>
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <form onSubmit={onSave} noValidate aria-label="Branding">
              <Stack gap="md">
                <CopyField label="Hosted sign-in page" value={`${project.hosted_pages_url}/sign-in`} copyLabel="Copy hosted sign-in page" wrap />
                <TextInput label="Logo URL" description="Shown on the hosted pages." placeholder="https://cdn.example/logo.png" {...form.getInputProps('logoUrl')} />
                <ColorInput label="Accent colour" description="Buttons and links of the hosted pages." placeholder={DEFAULT_ACCENT} format="hex" {...form.getInputProps('accentColor')} />
                {!readOnly && (
                  <Group justify="flex-end" gap="sm">
                    <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                      Discard changes
                    </Button>
                    <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
                      Save branding
                    </Button>
                  </Group>
                )}
              </Stack>
            </form>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={6} style={{ letterSpacing: 0.4 }}>
              Preview
            </Text>
            <HostedPreview name={project.name} logoUrl={form.values.logoUrl} accentColor={form.values.accentColor} />
          </Grid.Col>
        </Grid>
      </Card>
      <ProjectWording projectId={project.id} settings={settings} readOnly={readOnly} />
    </Stack>
  );
}
