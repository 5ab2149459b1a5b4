import { useState } from 'react';
import { Badge, Button, Card, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import type { OwnSession } from '../../../shared/schemas/sessions';
import { notify } from '../../lib/notify';
import type { SectionComponent } from '../settings/SettingsSection';
import { useHostedT } from '../../i18n/useHostedT';

/** How the sessions card ends sessions: the platform's tRPC procedures or a project's hosted API. */
export interface SessionSource {
  revoke(id: string): Promise<unknown>;
  revokeOthers(): Promise<{ revoked: number }>;
  /** Refetches the list; called after each attempt, whether it worked or not. */
  reload(): Promise<unknown>;
  errorMessage(failure: unknown, fallback: string): string;
}

interface SessionsPanelProps {
  section: SectionComponent;
  /** The list; undefined once loading has failed. */
  sessions: OwnSession[] | undefined;
  loading: boolean;
  onRetry: () => void;
  source: SessionSource;
  /** Names each "Sign out" button after its device ("Sign out Safari on iPhone"), as the hosted account page does. */
  labelSignOutByDevice?: boolean;
}

const MOBILE = /iPhone|iPad|Android/;

function SessionItem({ session, onSignOut, signingOut, labelled }: { session: OwnSession; onSignOut: () => void; signingOut: boolean; labelled: boolean }) {
  const Icon = MOBILE.test(session.device) ? IconDeviceMobile : IconDeviceDesktop;
  const { t, formatDateTime, countryLabel } = useHostedT();
  return (
    <Card component="li" withBorder padding="sm" radius="md" aria-label={session.current ? t('sessions.thisDeviceLabel', { device: session.device }) : session.device}>
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start" style={{ flex: '1 1 220px', minWidth: 0 }}>
          <ThemeIcon variant="light" color="gray" size="lg" radius="md" aria-hidden>
            <Icon size={20} />
          </ThemeIcon>
          <Stack gap={2} miw={0}>
            <Group gap="xs">
              <Text fw={600} title={session.user_agent ?? undefined}>
                {session.device}
              </Text>
              {session.current && (
                <Badge color="teal" variant="light">
                  {t('sessions.thisDevice')}
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {session.country_code ? countryLabel(session.country_code) : t('sessions.unknownLocation')} · {session.ip_address ?? t('sessions.unknownAddress')}
            </Text>
            <Text size="xs" c="dimmed">
              {session.current ? t('sessions.activeNow') : t('sessions.lastUsed', { time: formatDateTime(session.last_used_at) })}
            </Text>
          </Stack>
        </Group>
        {!session.current && (
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={signingOut}
            onClick={onSignOut}
            aria-label={labelled ? t('sessions.signOutDevice', { device: session.device }) : undefined}
          >
            {t('common.signOut')}
          </Button>
        )}
      </Group>
    </Card>
  );
}

/** Where the account is signed in, with a way to end any other session. */
export function SessionsPanel({ section: Section, sessions, loading, onRetry, source, labelSignOutByDevice = false }: SessionsPanelProps) {
  const [signingOut, setSigningOut] = useState<string | null>(null);
  const [signingOutOthers, setSigningOutOthers] = useState(false);
  const others = sessions?.filter((session) => !session.current).length ?? 0;
  const { t, known } = useHostedT();

  const signOut = async (id: string) => {
    setSigningOut(id);
    try {
      await source.revoke(id);
      notify.success(t('msg.sessionRevoked'));
    } catch (error) {
      notify.error(known(source.errorMessage(error, t('msg.signOutFailed'))));
    } finally {
      setSigningOut(null);
      await source.reload();
    }
  };

  const signOutOthers = async () => {
    setSigningOutOthers(true);
    try {
      const { revoked } = await source.revokeOthers();
      notify.success(t('sessions.othersSignedOut', { count: revoked }));
    } catch (error) {
      notify.error(known(source.errorMessage(error, t('msg.signOutOthersFailed'))));
    } finally {
      setSigningOutOthers(false);
      await source.reload();
    }
  };

  return (
    <Section title={t('sessions.title')} description={t('sessions.help')}>
      {loading ? (
        <Stack gap="sm" aria-hidden>
          <Skeleton h={72} radius="md" />
          <Skeleton h={72} radius="md" />
        </Stack>
      ) : !sessions ? (
        <Group gap="sm">
          <Text size="sm" c="red" role="alert">
            {t('msg.sessionsLoadFailed')}
          </Text>
          <Button size="xs" variant="default" onClick={onRetry}>
            {t('common.tryAgain')}
          </Button>
        </Group>
      ) : (
        <Stack gap="md">
          <Stack component="ul" gap="sm" m={0} p={0} aria-label={t('sessions.title')} style={{ listStyle: 'none' }}>
            {sessions.map((session) => (
              <SessionItem
                key={session.id}
                session={session}
                signingOut={signingOut === session.id}
                onSignOut={() => void signOut(session.id)}
                labelled={labelSignOutByDevice}
              />
            ))}
          </Stack>
          {others > 0 ? (
            <Group>
              <Button variant="default" color="red" loading={signingOutOthers} onClick={() => void signOutOthers()}>
                {t('sessions.signOutOthers')}
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('sessions.noOthers')}
            </Text>
          )}
        </Stack>
      )}
    </Section>
  );
}
