import { useState } from 'react';
import { ActionIcon, Button, Group, Loader, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { ConfirmModal } from '../ConfirmModal';
import { IconCheck, IconFingerprint, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import type { Passkey, PasskeyLoginInput, WebAuthnOptions } from '../../../shared/schemas/passkeys';
import { notify } from '../../lib/notify';
import { createPasskey, PasskeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { StepUpCancelled } from '../../lib/step-up';
import type { SectionComponent } from '../settings/SettingsSection';
import { useStepUp } from './StepUp';
import { VerifyFirstNotice } from './VerifyFirstNotice';
import { useHostedT } from '../../i18n/useHostedT';

/** How a passkeys card reaches the account's passkeys: the platform's tRPC procedures or a project's hosted API. */
export interface PasskeySource {
  registrationOptions(): Promise<WebAuthnOptions>;
  register(response: PasskeyLoginInput['response']): Promise<Passkey>;
  rename(id: string, name: string): Promise<unknown>;
  remove(id: string): Promise<unknown>;
  /** Refetches the list; awaited after each change, before the change reports success. */
  reload(): Promise<unknown>;
  /** The text for a failure: the server's detail, the browser's own message, or the fallback. */
  errorMessage(failure: unknown, fallback: string): string;
}

interface PasskeysPanelProps {
  section: SectionComponent;
  /** Whether the account's address is verified: a passkey cannot be added before. */
  verified: boolean;
  passkeys: Passkey[] | undefined;
  loading: boolean;
  failed: boolean;
  source: PasskeySource;
}

/** The passkeys card: add one (the browser's dialog), rename, remove. */
export function PasskeysPanel({ section: Section, verified, passkeys = [], loading, failed, source }: PasskeysPanelProps) {
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const { t, known } = useHostedT();
  const supported = passkeysSupported();
  const stepUp = useStepUp();

  const add = async () => {
    setError(null);
    setAdding(true);
    try {
      // A new way in: the server asks for a recent proof of who the user is, before and after the browser's dialog.
      const passkey = await stepUp.guard(async () => source.register(await createPasskey(await source.registrationOptions())));
      await source.reload();
      notify.success(t('passkeys.added', { name: passkey.name }));
    } catch (failure) {
      if (failure instanceof PasskeyCancelled) notify.info(failure.message);
      else if (!(failure instanceof StepUpCancelled)) setError(known(source.errorMessage(failure, t('passkeys.addFailed'))));
    } finally {
      setAdding(false);
    }
  };

  return (
    <Section title={t('passkeys.title')} description={t('passkeys.help')}>
      <Stack gap="md">
        {loading ? (
          <Loader size="sm" aria-label={t('passkeys.loading')} />
        ) : failed ? (
          <Text size="sm" c="red" role="alert">
            {t('passkeys.loadFailed')}
          </Text>
        ) : passkeys.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('passkeys.none')}
          </Text>
        ) : (
          <Stack gap="xs" role="list" aria-label={t('passkeys.list')}>
            {passkeys.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} source={source} onRemove={() => setRemoving(passkey)} />
            ))}
          </Stack>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        {verified ? (
          <Group>
            <Button leftSection={<IconFingerprint size={18} />} onClick={() => void add()} loading={adding} disabled={!supported}>
              {t('passkeys.add')}
            </Button>
            {!supported && (
              <Text size="sm" c="dimmed">
                {t('passkeys.unsupported')}
              </Text>
            )}
          </Group>
        ) : (
          <VerifyFirstNotice what={t('passkeys.title')} />
        )}
      </Stack>
      <RemovePasskeyModal passkey={removing} source={source} onClose={() => setRemoving(null)} />
    </Section>
  );
}

function PasskeyRow({ passkey, source, onRemove }: { passkey: Passkey; source: PasskeySource; onRemove: () => void }) {
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const { t, known, formatDate } = useHostedT();

  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      await source.rename(passkey.id, name);
      await source.reload();
      setEditing(false);
    } catch (failure) {
      setError(known(source.errorMessage(failure, t('passkeys.renameFailed'))));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p="sm" radius="md" role="listitem" aria-label={passkey.name}>
      <Group justify="space-between" wrap="nowrap" gap="sm" align="center">
        {editing ? (
          <form
            style={{ flex: 1, minWidth: 0 }}
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <TextInput
                aria-label={t('passkeys.name')}
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={error}
                maxLength={64}
                autoFocus
                style={{ flex: 1, minWidth: 0 }}
              />
              <ActionIcon type="submit" variant="light" size="lg" aria-label={t('passkeys.saveName')} loading={saving}>
                <IconCheck size={18} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={t('passkeys.cancelRename')}
                onClick={() => {
                  setEditing(false);
                  setName(passkey.name);
                  setError(null);
                }}
              >
                <IconX size={18} />
              </ActionIcon>
            </Group>
          </form>
        ) : (
          <>
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <IconFingerprint size={22} stroke={1.5} aria-hidden />
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm" truncate>
                  {passkey.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('passkeys.addedOn', { added: formatDate(passkey.created_at), used: formatDate(passkey.last_used_at) })}
                </Text>
              </div>
            </Group>
            <Group gap={4} wrap="nowrap">
              <Tooltip label={t('common.rename')}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('common.renameItem', { name: passkey.name })}
                  onClick={() => {
                    setName(passkey.name);
                    setEditing(true);
                  }}
                >
                  <IconPencil size={18} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('common.remove')}>
                <ActionIcon variant="subtle" color="red" aria-label={t('common.removeItem', { name: passkey.name })} onClick={onRemove}>
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
          </>
        )}
      </Group>
    </Paper>
  );
}

function RemovePasskeyModal({ passkey, source, onClose }: { passkey: Passkey | null; source: PasskeySource; onClose: () => void }) {
  const [pending, setPending] = useState(false);
  const { t, known } = useHostedT();
  const confirm = async () => {
    if (!passkey) return;
    setPending(true);
    try {
      await source.remove(passkey.id);
      await source.reload();
      notify.success(t('passkeys.removed', { name: passkey.name }));
      onClose();
    } catch (failure) {
      notify.error(known(source.errorMessage(failure, t('passkeys.removeFailed'))));
    } finally {
      setPending(false);
    }
  };
  return (
    <ConfirmModal opened={passkey !== null} title={t('passkeys.removeTitle')} confirmLabel={t('common.remove')} pending={pending} onConfirm={() => void confirm()} onClose={onClose}>
      <Text size="sm">
        {t('passkeys.removeText', { name: passkey?.name ?? '' })}
      </Text>
    </ConfirmModal>
  );
}
