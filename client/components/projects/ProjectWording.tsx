import { useState } from 'react';
import { Button, Card, Group, Select, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { CATALOGUES, localeName, SUPPORTED_LOCALES, type Locale } from '../../../shared/i18n/locales';
import { OVERRIDABLE_KEYS, OVERRIDE_MAX_LENGTH, placeholdersOf } from '../../../shared/i18n/overrides';
import type { ProjectSettings } from '../../../shared/schemas/project-settings';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SETTINGS_TEXTS } from '../../messages';
import { ReadOnlyNote } from './ReadOnlyNote';
import { notifyFailure } from './states';

/** The catalogue's text of "ns:key" in a language. */
function catalogueText(locale: Locale, fullKey: string): string {
  const at = fullKey.indexOf(':');
  return (CATALOGUES[locale] as Record<string, Record<string, string>>)[fullKey.slice(0, at)]?.[fullKey.slice(at + 1)] ?? '';
}

/**
 * The project's own wording of its hosted pages and end-user mails, per language: pick a language and
 * a string of the catalogue, write the project's text (with the same {{placeholders}}), save or reset.
 */
export function ProjectWording({ projectId, settings, readOnly }: { projectId: string; settings: ProjectSettings; readOnly: boolean }) {
  const utils = trpc.useUtils();
  const update = trpc.projectSettings.update.useMutation();
  const [locale, setLocale] = useState<Locale>('en');
  const [key, setKey] = useState<string | null>(null);
  const [text, setText] = useState('');
  const own = settings.string_overrides[locale] ?? {};

  const choose = (next: string | null) => {
    setKey(next);
    setText(next ? (own[next] ?? catalogueText(locale, next)) : '');
  };

  const save = async (fullKey: string, value: string | null) => {
    try {
      const next = await update.mutateAsync({ id: projectId, string_overrides: { [locale]: { [fullKey]: value } } });
      utils.projectSettings.get.setData({ id: projectId }, next);
      notify.success(value === null ? SETTINGS_TEXTS.wordingReset : SETTINGS_TEXTS.wordingSaved);
      if (fullKey === key) setText(value ?? catalogueText(locale, fullKey));
    } catch (error) {
      notifyFailure(SETTINGS_TEXTS.saveFailed, error);
    }
  };

  const placeholders = key ? placeholdersOf(catalogueText('en', key)) : [];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="wording-heading">
      <Title order={3} fz="md" id="wording-heading">
        Wording per language
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        The hosted pages and end-user mails speak English, German, French, Spanish and Japanese. Replace any of their strings in any language with your own; a
        mail template of your own still wins over the built-in mail.
      </Text>
      {readOnly && <ReadOnlyNote />}
      <Stack gap="md">
        <Group grow align="flex-start">
          <Select
            label="Language"
            data={SUPPORTED_LOCALES.map((value) => ({ value, label: `${localeName(value)} (${value})` }))}
            value={locale}
            onChange={(value) => {
              setLocale((value as Locale) ?? 'en');
              setKey(null);
              setText('');
            }}
            allowDeselect={false}
          />
          <Select
            label="String"
            placeholder="Search the catalogue"
            searchable
            data={OVERRIDABLE_KEYS.map((value) => ({ value, label: `${value}${own[value] ? ' (yours)' : ''}` }))}
            value={key}
            onChange={choose}
            limit={50}
            maxDropdownHeight={280}
          />
        </Group>
        {key && (
          <Stack gap="xs">
            <Textarea
              label="Text"
              description={`Built in: “${catalogueText(locale, key)}”${placeholders.length > 0 ? ` — keep ${placeholders.join(', ')}` : ''}`}
              autosize
              minRows={2}
              maxLength={OVERRIDE_MAX_LENGTH}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              disabled={readOnly}
            />
            {!readOnly && (
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={() => void save(key, null)} disabled={!own[key]} loading={update.isPending}>
                  Reset to built-in
                </Button>
                <Button onClick={() => void save(key, text)} disabled={!text.trim() || text === (own[key] ?? catalogueText(locale, key))} loading={update.isPending}>
                  Save text
                </Button>
              </Group>
            )}
          </Stack>
        )}
        {Object.keys(own).length > 0 && (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs" aria-label={`Your ${localeName(locale)} strings`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>String</Table.Th>
                  <Table.Th>Your text</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {Object.entries(own).map(([fullKey, value]) => (
                  <Table.Tr key={fullKey}>
                    <Table.Td>
                      <Text size="xs" ff="monospace">
                        {fullKey}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={2}>
                        {value}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {!readOnly && (
                        <Button size="compact-xs" variant="subtle" onClick={() => void save(fullKey, null)} aria-label={`Reset ${fullKey}`}>
                          Reset
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
