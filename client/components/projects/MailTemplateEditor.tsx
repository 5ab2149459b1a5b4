import { useEffect, useState } from 'react';
import { Badge, Box, Button, Group, Paper, SegmentedControl, Select, Stack, Text, Textarea, TextInput, useMatches } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconEye, IconSend } from '@tabler/icons-react';
import { builtInMailTemplate } from '../../../shared/mail-templates';
import { localeName, SUPPORTED_LOCALES, type Locale } from '../../../shared/i18n/locales';
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
  { value: 'magic_link', label: 'Magic link' },
  { value: 'email_code', label: 'Sign-in code' },
];


type Unsaved = Pick<ProjectSettings, 'mail_sender_name' | 'mail_product_name' | 'mail_accent_color' | 'mail_secured_by'>;

/**
 * One mail kind at a time: a custom subject and text with placeholders, saved or restored to the
 * built-in, a preview that is exactly the mail sent (to the developer's own address), and "Send test
 * mail" that sends it there.
 */
export function MailTemplateEditor({ projectId, settings, brand, readOnly }: { projectId: string; settings: ProjectSettings; brand: Unsaved; readOnly: boolean }) {
  const utils = trpc.useUtils();
  const update = trpc.projectSettings.update.useMutation();
  const previewMail = trpc.projectSettings.previewMail.useMutation();
  const sendTestMail = trpc.projectSettings.sendTestMail.useMutation();
  const [kind, setKind] = useState<MailTemplateKind>('verification');
  // Side by side the three kinds need about 420 px; a phone stacks them rather than cut one off.
  const kindsOrientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', xs: 'horizontal' });
  const [preview, setPreview] = useState<MailPreview | null>(null);
  // The recipient's language: the built-in text the editor starts from, and the preview's layout.
  const [locale, setLocale] = useState<Locale>('en');
  const stored = settings.mail_templates[kind];
  // The editor starts from the very text the server sends when the project has no template of its own (with its wording for the language).
  const starter = builtInMailTemplate(kind, locale, settings.string_overrides);
  const form = useForm({ mode: 'controlled', initialValues: stored ?? starter, validate: resolver(MailTemplateSchema) });

  const saved = JSON.stringify([kind, stored, starter]);
  useEffect(() => {
    form.setInitialValues(stored ?? starter);
    form.setValues(stored ?? starter);
    form.resetDirty();
    setPreview(null);
  }, [saved]);

  const save = async (template: { subject: string; text: string } | null) => {
    try {
      const next = await update.mutateAsync({ id: projectId, mail_templates: { [kind]: template } });
      utils.projectSettings.get.setData({ id: projectId }, next);
      notify.success(template ? SETTINGS_TEXTS.templateSaved : SETTINGS_TEXTS.templateRestored);
    } catch (error) {
      notifyFailure(SETTINGS_TEXTS.saveFailed, error);
    }
  };

  const render = async (template: { subject: string; text: string } | null) => {
    try {
      setPreview(await previewMail.mutateAsync({ id: projectId, kind, template, locale, ...brand }));
    } catch (error) {
      notifyFailure(SETTINGS_TEXTS.previewFailed, error);
    }
  };

  const sendTest = async (template: { subject: string; text: string }) => {
    try {
      notify.success((await sendTestMail.mutateAsync({ id: projectId, kind, template, locale, ...brand })).message);
    } catch (error) {
      notifyFailure(SETTINGS_TEXTS.testMailFailed, error);
    }
  };

  const onSave = form.onSubmit((values) => void save(values));
  const checked = (then: (template: { subject: string; text: string }) => Promise<void>) => () => {
    if (!form.validate().hasErrors) void then(form.getValues());
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <SegmentedControl
          aria-label="Mail"
          data={KINDS}
          value={kind}
          onChange={(value) => setKind(value as MailTemplateKind)}
          orientation={kindsOrientation}
          w={{ base: '100%', sm: 'auto' }}
        />
        <Group gap="sm">
          <Select
            aria-label="Recipient's language"
            size="xs"
            w={150}
            data={SUPPORTED_LOCALES.map((value) => ({ value, label: localeName(value) }))}
            value={locale}
            onChange={(value) => setLocale((value as Locale) ?? 'en')}
            allowDeselect={false}
          />
          <Badge variant="light" color={stored ? 'blue' : 'gray'}>
            {stored ? 'Custom template' : 'Built-in mail'}
          </Badge>
        </Group>
      </Group>
      <Text size="xs" c="dimmed">
        Placeholders: {MAIL_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ')}. Values are escaped in the HTML part; a paragraph of only {'{{link}}'} becomes the
        button, any other {'{{link}}'} a link. Verification and reset mails need {'{{link}}'}. Every mail ends with the sign-off and, unless turned off, the
        &ldquo;Secured by&rdquo; line.
      </Text>
      <form onSubmit={onSave} noValidate>
        <Stack gap="sm">
          <TextInput label="Subject" disabled={readOnly} {...form.getInputProps('subject')} />
          <Textarea label="Text" autosize minRows={5} maxRows={14} disabled={readOnly} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} {...form.getInputProps('text')} />
          <Group justify="flex-end" gap="sm">
            {!readOnly && stored && (
              <Button variant="subtle" color="gray" onClick={() => void save(null)} loading={update.isPending && update.variables?.mail_templates?.[kind] === null}>
                Restore built-in mail
              </Button>
            )}
            {!readOnly && (
              <Button variant="default" leftSection={<IconEye size={16} />} onClick={checked(render)} loading={previewMail.isPending}>
                Preview
              </Button>
            )}
            {!readOnly && (
              <Button variant="default" leftSection={<IconSend size={16} />} onClick={checked(sendTest)} loading={sendTestMail.isPending}>
                Send test mail
              </Button>
            )}
            {!readOnly && (
              <Button type="submit" loading={update.isPending && Boolean(update.variables?.mail_templates?.[kind])} disabled={Boolean(stored) && !form.isDirty()}>
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
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span c="dimmed">
                To:{' '}
              </Text>
              {preview.to}
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
