import { useState } from 'react';
import { ActionIcon, Button, Group, Loader, Modal, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconFingerprint, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import type { Passkey } from '../../../shared/schemas/passkeys';
import { AccountSection } from './AccountSection';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { createPasskey, PasskeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { PASSKEYS_KEY, useHosted } from '../HostedContext';
import { passkeyFailureMessage } from '../passkey-errors';

/** The end user's passkeys: add one (the browser's dialog), rename, remove. */
export function PasskeysCard() {
  const { api } = useHosted();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: PASSKEYS_KEY, queryFn: api.passkeys });
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const supported = passkeysSupported();

  const add = async () => {
    setError(null);
    setAdding(true);
    try {
      const response = await createPasskey(await api.passkeyRegistrationOptions());
      const { passkey } = await api.registerPasskey(response);
      await queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
      notify.success(`Passkey "${passkey.name}" added`);
    } catch (failure) {
      if (failure instanceof PasskeyCancelled) notify.info(failure.message);
      else setError(passkeyFailureMessage(failure, 'Could not add the passkey'));
    } finally {
      setAdding(false);
    }
  };

  const passkeys = list.data?.passkeys ?? [];
  return (
    <AccountSection title="Passkeys" description="Sign in with your fingerprint, face or screen lock instead of a password. A passkey cannot be phished or reused on another site.">
      <Stack gap="md">
        {list.isPending ? (
          <Loader size="sm" aria-label="Loading passkeys" />
        ) : list.isError ? (
          <Text size="sm" c="red" role="alert">
            Could not load your passkeys.
          </Text>
        ) : passkeys.length === 0 ? (
          <Text size="sm" c="dimmed">
            No passkeys yet.
          </Text>
        ) : (
          <Stack gap="xs" role="list" aria-label="Your passkeys">
            {passkeys.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} onRemove={() => setRemoving(passkey)} />
            ))}
          </Stack>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group>
          <Button leftSection={<IconFingerprint size={18} />} onClick={() => void add()} loading={adding} disabled={!supported}>
            Add a passkey
          </Button>
          {!supported && (
            <Text size="sm" c="dimmed">
              This browser does not support passkeys.
            </Text>
          )}
        </Group>
      </Stack>
      <RemovePasskeyModal passkey={removing} onClose={() => setRemoving(null)} />
    </AccountSection>
  );
}

function PasskeyRow({ passkey, onRemove }: { passkey: Passkey; onRemove: () => void }) {
  const { api } = useHosted();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      await api.renamePasskey(passkey.id, name);
      await queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
      setEditing(false);
    } catch (failure) {
      setError(passkeyFailureMessage(failure, 'Could not rename the passkey'));
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
                aria-label="Passkey name"
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={error}
                maxLength={64}
                autoFocus
                style={{ flex: 1, minWidth: 0 }}
              />
              <ActionIcon type="submit" variant="light" size="lg" aria-label="Save name" loading={saving}>
                <IconCheck size={18} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label="Cancel renaming"
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
                  Added {formatDate(passkey.created_at)} · Last used {formatDate(passkey.last_used_at)}
                </Text>
              </div>
            </Group>
            <Group gap={4} wrap="nowrap">
              <Tooltip label="Rename">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`Rename ${passkey.name}`}
                  onClick={() => {
                    setName(passkey.name);
                    setEditing(true);
                  }}
                >
                  <IconPencil size={18} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Remove">
                <ActionIcon variant="subtle" color="red" aria-label={`Remove ${passkey.name}`} onClick={onRemove}>
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

function RemovePasskeyModal({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  const { api } = useHosted();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const confirm = async () => {
    if (!passkey) return;
    setPending(true);
    try {
      await api.removePasskey(passkey.id);
      await queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
      notify.success(`Passkey "${passkey.name}" removed`);
      onClose();
    } catch (failure) {
      notify.error(passkeyFailureMessage(failure, 'Could not remove the passkey'));
    } finally {
      setPending(false);
    }
  };
  return (
    <Modal opened={passkey !== null} onClose={onClose} title="Remove passkey" centered>
      <Stack gap="md">
        <Text size="sm">
          &ldquo;{passkey?.name}&rdquo; will no longer sign in to your account. Remove it from the device&apos;s passkey manager too.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={pending}>
            Remove
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
