import { useEffect, useState } from 'react';
import { Badge, Box, Button, Group, Paper, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconEye } from '@tabler/icons-react';
import { MAIL_PLACEHOLDERS, MailTemplateSchema, type MailPreview, type MailTemplateKind, type ProjectSettings } from '../../../shared/schemas/project-settings';
import { resolver } from '../../forms';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SETTINGS_TEXTS } from '../../messages';
import { notifyFailure } from './states';

const KINDS: { value: MailTemplateKind; label: string }[] = [
  { value: 'verification', label: 'Verification' },
  { value: 'password_reset', label: 'Password reset' },
  { value: 'password_changed', label: 'Password changed' },
];

const STARTERS: Record<MailTemplateKind, { subject: string; text: string }> = {
  verification: { subject: 'Confirm your {{product_name}} account', text: 'Hello,\n\nConfirm {{email}} to finish setting up your {{product_name}} account:\n\n{{link}}\n\nThe link expires in 24 hours.' },
  password_reset: { subject: 'Reset your {{product_name}} password', text: 'Hello,\n\nSomeone asked to reset the password of {{email}}. If it was you, open:\n\n{{link}}\n\nThe link expires in 1 hour. If it was not you, ignore this message.' },
  password_changed: { subject: 'Your {{product_name}} password was changed', text: 'Hello,\n\nThe password of {{email}} was just changed. If this was not you, reset it right away at {{link}}.' },
};

type Unsaved = Pick<ProjectSettings, 'mail_sender_name' | 'mail_product_name' | 'mail_accent_color'>;

/** One mail kind at a time: a custom subject and text with placeholders, saved or restored to the built-in, and a rendered preview. */
export function MailTemplateEditor({ projectId, settings, brand, readOnly }: { projectId: string; settings: ProjectSettings; brand: Unsaved; readOnly: boolean }) {
  const utils = trpc.useUtils();
  const update = trpc.projectSettings.update.useMutation();
  const previewMail = trpc.projectSettings.previewMail.useMutation();
  const [kind, setKind] = useState<MailTemplateKind>('verification');
  const [preview, setPreview] = useState<MailPreview | null>(null);
  const stored = settings.mail_templates[kind];
  const form = useForm({ mode: 'controlled', initialValues: stored ?? STARTERS[kind], validate: resolver(MailTemplateSchema) });

  const saved = JSON.stringify([kind, stored]);
  useEffect(() => {
    form.setInitialValues(stored ?? STARTERS[kind]);
    form.setValues(stored ?? STARTERS[kind]);
    form.resetDirty();
    setPreview(null);
  }, [saved]);

  const save = async (template: { subject: string; text: string } | null) => {
    try {
      const next = await update.mutateAsync({ projectId, changes: { mail_templates: { [kind]: template } } });
      utils.projectSettings.get.setData({ projectId }, next);
      notify.success(template ? SETTINGS_TEXTS.templateSaved : SETTINGS_TEXTS.templateRestored);
    } catch (error) {
      notifyFailure(SETTINGS_TEXTS.saveFailed, error);
    }
  };

  const render = async (template: { subject: string; text: string } | null) => {
    try {
      setPreview(await previewMail.mutateAsync({ projectId, kind, template, ...brand }));
    } catch (error) {
      notifyFailure(SETTINGS_TEXTS.previewFailed, error);
    }
  };

  const onSave = form.onSubmit((values) => void save(values));
  const onPreview = () => {
    const checked = form.validate();
    if (!checked.hasErrors) void render(form.getValues());
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <SegmentedControl aria-label="Mail" data={KINDS} value={kind} onChange={(value) => setKind(value as MailTemplateKind)} w={{ base: '100%', sm: 'auto' }} />
        <Badge variant="light" color={stored ? 'blue' : 'gray'}>
          {stored ? 'Custom template' : 'Built-in mail'}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        Placeholders: {MAIL_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ')}. Values are escaped in the HTML part; the link becomes a link. Verification and reset mails
        need {'{{link}}'}.
      </Text>
      <form onSubmit={onSave} noValidate>
        <Stack gap="sm">
          <TextInput label="Subject" disabled={readOnly} {...form.getInputProps('subject')} />
          <Textarea label="Text" autosize minRows={5} maxRows={14} disabled={readOnly} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} {...form.getInputProps('text')} />
          <Group justify="flex-end" gap="sm">
            {!readOnly && stored && (
              <Button variant="subtle" color="gray" onClick={() => void save(null)} loading={update.isPending && update.variables?.changes.mail_templates?.[kind] === null}>
                Restore built-in mail
              </Button>
            )}
            {!readOnly && (
              <Button variant="default" leftSection={<IconEye size={16} />} onClick={onPreview} loading={previewMail.isPending}>
                Preview
              </Button>
            )}
            {!readOnly && (
              <Button type="submit" loading={update.isPending && Boolean(update.variables?.changes.mail_templates?.[kind])} disabled={Boolean(stored) && !form.isDirty()}>
                Save template
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      {preview && (
        <Paper withBorder radius="md" p="sm" component="figure" m={0} aria-label="Mail preview">
          <Stack gap={4} mb="xs">
            <Text size="sm">
              <Text span c="dimmed">
                From:{' '}
              </Text>
              {preview.from_name}
            </Text>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {preview.subject}
            </Text>
          </Stack>
          {/* The rendered HTML in a sandbox: no scripts, no same-origin access. White like a mail client's page in both schemes. */}
          <Box component="iframe" title="Rendered mail" sandbox="" srcDoc={preview.html} w="100%" h={360} style={{ border: 0, background: '#fff', borderRadius: 4 }} />
        </Paper>
      )}
    </Stack>
  );
}
