import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { ConfirmModal } from '../ConfirmModal';
import { IconInfoCircle, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { Identity, SignInProvider, SocialProvider } from '../../../shared/schemas/social';
import { browser } from '../../lib/navigation';
import { notify } from '../../lib/notify';
import { ProviderIcon } from '../auth/ProviderIcon';
import type { SectionComponent } from '../settings/SettingsSection';
import { StepUpCancelled } from '../../lib/step-up';
import { useStepUp } from './StepUp';
import { VerifyFirstNotice } from './VerifyFirstNotice';
import { useHostedT } from '../../i18n/useHostedT';
import { HostedTrans } from '../../i18n/HostedTrans';

/** How a sign-in methods card reaches the account's providers: the platform's tRPC procedures or a project's hosted API. */
export interface SignInMethodsSource {
  remove(id: string): Promise<unknown>;
  /** Refetches the list; awaited after a removal, before it reports success. */
  reload(): Promise<unknown>;
  /** The navigation that connects a provider to the signed-in account (and comes back to this page). */
  connectUrl(provider: SocialProvider): string;
  /** Where an account without a password asks for one (the forgot-password page). */
  forgotPasswordPath: string;
  errorMessage(failure: unknown, fallback: string): string;
}

export interface SignInMethods {
  identities: Identity[];
  has_password: boolean;
  available: SignInProvider[];
}

interface SignInMethodsPanelProps {
  section: SectionComponent;
  /** Whether the account's address is verified: a provider cannot be connected before. */
  verified: boolean;
  methods: SignInMethods | undefined;
  loading: boolean;
  failed: boolean;
  source: SignInMethodsSource;
}

/** The providers connected to the account (GitHub, Google, …): remove one, or connect another. */
export function SignInMethodsPanel({ section: Section, verified, methods, loading, failed, source }: SignInMethodsPanelProps) {
  const [removing, setRemoving] = useState<Identity | null>(null);
  const [connecting, setConnecting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stepUp = useStepUp();
  const { t, known } = useHostedT();

  // A navigation the server would send back with step_up_required: ask for the proof first.
  const connect = async (provider: SocialProvider) => {
    setError(null);
    setConnecting(provider);
    try {
      await stepUp.ensure();
      browser.assign(source.connectUrl(provider));
    } catch (failure) {
      setConnecting(null);
      if (!(failure instanceof StepUpCancelled)) setError(known(source.errorMessage(failure, t('methods.connectFailed'))));
    }
  };

  return (
    <Section title={t('methods.title')} description={t('methods.help')}>
      <Stack gap="md">
        {loading ? (
          <Loader size="sm" aria-label={t('methods.loading')} />
        ) : failed || !methods ? (
          <Text size="sm" c="red" role="alert">
            {t('methods.loadFailed')}
          </Text>
        ) : (
          <>
            {methods.identities.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('methods.none')}
              </Text>
            ) : (
              <Stack gap="xs" role="list" aria-label={t('methods.list')}>
                {methods.identities.map((identity) => (
                  <IdentityRow key={identity.id} identity={identity} onRemove={() => setRemoving(identity)} />
                ))}
              </Stack>
            )}
            {!methods.has_password && (
              <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
                <HostedTrans
                  i18nKey="methods.noPassword"
                  components={{ reset: <Anchor component={Link} to={source.forgotPasswordPath} size="sm" inherit /> }}
                />
              </Alert>
            )}
            {methods.available.length > 0 &&
              (verified ? (
                <Group gap="sm">
                  {methods.available.map((provider) => (
                    <Button
                      key={provider.id}
                      variant="default"
                      leftSection={<ProviderIcon provider={provider.id} />}
                      loading={connecting === provider.id}
                      disabled={connecting !== null && connecting !== provider.id}
                      onClick={() => void connect(provider.id)}
                    >
                      {t('methods.connect', { provider: provider.name })}
                    </Button>
                  ))}
                </Group>
              ) : (
                <VerifyFirstNotice what={t('methods.other')} />
              ))}
            {error && (
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
            )}
          </>
        )}
      </Stack>
      <RemoveIdentityModal identity={removing} source={source} onClose={() => setRemoving(null)} />
    </Section>
  );
}

function IdentityRow({ identity, onRemove }: { identity: Identity; onRemove: () => void }) {
  const { t, formatDate } = useHostedT();
  return (
    <Paper withBorder p="sm" radius="md" role="listitem" aria-label={identity.provider_name}>
      <Group justify="space-between" wrap="nowrap" gap="sm" align="center">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ProviderIcon provider={identity.provider} size={22} />
          <div style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" truncate>
              {identity.provider_name}
              {identity.email && (
                <Text span c="dimmed" fw={400} size="sm">
                  {' '}
                  · {identity.email}
                </Text>
              )}
            </Text>
            <Text size="xs" c="dimmed">
              {t('methods.connectedOn', { added: formatDate(identity.created_at), used: formatDate(identity.last_used_at) })}
            </Text>
          </div>
        </Group>
        <Tooltip label={t('common.remove')}>
          <ActionIcon variant="subtle" color="red" aria-label={t('common.removeItem', { name: identity.provider_name })} onClick={onRemove}>
            <IconTrash size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Paper>
  );
}

function RemoveIdentityModal({ identity, source, onClose }: { identity: Identity | null; source: SignInMethodsSource; onClose: () => void }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { t, known } = useHostedT();
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (!identity) return;
    setError(null);
    setPending(true);
    try {
      await source.remove(identity.id);
      await source.reload();
      notify.success(t('msg.identityRemoved'));
      close();
    } catch (failure) {
      // The last way to sign in (409) stays: the message says what to add first.
      setError(known(source.errorMessage(failure, t('methods.removeFailed'))));
    } finally {
      setPending(false);
    }
  };
  return (
    <ConfirmModal
      opened={identity !== null}
      title={t('methods.removeTitle')}
      confirmLabel={t('common.remove')}
      pending={pending}
      error={error}
      onConfirm={() => void confirm()}
      onClose={close}
    >
      <Text size="sm">
        {t('methods.removeText', { provider: identity?.provider_name ?? '', email: identity?.email ? ` (${identity.email})` : '' })}
      </Text>
    </ConfirmModal>
  );
}
