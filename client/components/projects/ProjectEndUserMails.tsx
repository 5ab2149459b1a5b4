import { useEffect } from 'react';
import { Button, Card, ColorInput, Divider, Fieldset, Group, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { z } from 'zod';
import { PRODUCT_NAME } from '../../../shared/constants';
import type { ProjectSettings } from '../../../shared/schemas/project-settings';
import { AccentColorSchema } from '../../../shared/schemas/projects';
import { resolver } from '../../forms';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SETTINGS_TEXTS } from '../../messages';
import { MailTemplateEditor } from './MailTemplateEditor';
import { UnsavedChangesGuard } from '../UnsavedChangesGuard';
import { ReadOnlyNote } from './ReadOnlyNote';
import { notifyFailure } from './states';

const oneLine = (label: string) =>
  z
    .string()
    .trim()
    .max(100, { error: `${label} must be at most 100 characters` })
    .refine((value) => !/[<>"]/.test(value), { error: `${label} may not contain <, > or "` });

const BrandingFormSchema = z.object({ senderName: oneLine('Sender name'), productName: oneLine('Product name'), accentColor: AccentColorSchema });
type BrandingValues = { senderName: string; productName: string; accentColor: string; securedBy: boolean };

const brandingOf = (settings: ProjectSettings): BrandingValues => ({
  senderName: settings.mail_sender_name ?? '',
  productName: settings.mail_product_name ?? '',
  accentColor: settings.mail_accent_color ?? '',
  securedBy: settings.mail_secured_by,
});

/** The verification, reset and notice mails the project's end users get: whose name and colour they carry, and their own wording. */
export function ProjectEndUserMails({ projectId, projectName, settings, readOnly }: { projectId: string; projectName: string; settings: ProjectSettings; readOnly: boolean }) {
  const utils = trpc.useUtils();
  const update = trpc.projectSettings.update.useMutation();
  const form = useForm<BrandingValues>({ mode: 'controlled', initialValues: brandingOf(settings), validate: resolver(BrandingFormSchema) });

  const saved = JSON.stringify(brandingOf(settings));
  useEffect(() => {
    form.setInitialValues(brandingOf(settings));
    form.setValues(brandingOf(settings));
    form.resetDirty();
  }, [saved]);

  const onSave = form.onSubmit(async (values) => {
    try {
      const next = await update.mutateAsync({
        id: projectId,
        mail_sender_name: values.senderName || null,
        mail_product_name: values.productName || null,
        mail_accent_color: values.accentColor || null,
        mail_secured_by: values.securedBy,
      });
      utils.projectSettings.get.setData({ id: projectId }, next);
      notify.success(SETTINGS_TEXTS.mailsSaved);
    } catch (error) {
      notifyFailure(SETTINGS_TEXTS.saveFailed, error);
    }
  });

  // The preview shows the names and colour being edited, saved or not.
  const values = form.getValues();
  const brand = {
    mail_sender_name: values.senderName || null,
    mail_product_name: values.productName || null,
    mail_accent_color: /^#[0-9a-f]{6}$/i.test(values.accentColor) ? values.accentColor : null,
    mail_secured_by: values.securedBy,
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="end-user-mails-heading">
      <Title order={3} fz="md" id="end-user-mails-heading">
        End-user mails
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        The verification, password reset and notice mails this project&apos;s users receive. Left empty, they carry the project&apos;s name ({projectName}), its
        accent colour and its logo.
      </Text>
      <UnsavedChangesGuard when={!readOnly && form.isDirty()} onDiscard={() => form.reset()} />
      {readOnly && <ReadOnlyNote />}
      <Stack gap="lg">
        <form onSubmit={onSave} noValidate>
          <Fieldset variant="unstyled" disabled={readOnly}>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              <TextInput label="Sender name" description="The From name; the address stays the platform's." placeholder={projectName} {...form.getInputProps('senderName')} />
              <TextInput label="Product name" description="Signs each mail; {{product_name}}." placeholder={projectName} {...form.getInputProps('productName')} />
              <ColorInput label="Accent colour" description="Buttons and links." placeholder="The project's colour" format="hex" {...form.getInputProps('accentColor')} />
            </SimpleGrid>
            <Switch
              mt="md"
              label={`Show "Secured by ${PRODUCT_NAME}" at the foot of each mail`}
              {...form.getInputProps('securedBy', { type: 'checkbox' })}
            />
            {!readOnly && (
              <Group justify="flex-end" gap="sm" mt="md">
                <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                  Discard changes
                </Button>
                <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
                  Save mail settings
                </Button>
              </Group>
            )}
          </Fieldset>
        </form>
        <Divider label="Templates" labelPosition="left" />
        <MailTemplateEditor projectId={projectId} settings={settings} brand={brand} readOnly={readOnly} />
      </Stack>
    </Card>
  );
}
