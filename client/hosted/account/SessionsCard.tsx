import { useState } from 'react';
import { Badge, Button, Card, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import { MESSAGES } from '../../../shared/messages';
import type { OwnSession } from '../../../shared/schemas/sessions';
import { AccountSection } from './AccountSection';
import { countOf, countryLabel, formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { SESSION_TEXTS } from '../../messages';
import { hostedErrorMessage } from '../api';
import { SESSIONS_KEY, useHosted } from '../HostedContext';

const MOBILE = /iPhone|iPad|Android/;

function SessionItem({ session, onSignOut, signingOut }: { session: OwnSession; onSignOut: () => void; signingOut: boolean }) {
  const Icon = MOBILE.test(session.device) ? IconDeviceMobile : IconDeviceDesktop;
  return (
    <Card component="li" withBorder padding="sm" radius="md" aria-label={session.current ? `${session.device}, this device` : session.device}>
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
                  This device
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {session.country_code ? countryLabel(session.country_code) : 'Unknown location'} · {session.ip_address ?? 'Unknown address'}
            </Text>
            <Text size="xs" c="dimmed">
              {session.current ? 'Active now' : `Last used ${formatDateTime(session.last_used_at)}`}
            </Text>
          </Stack>
        </Group>
        {!session.current && (
          <Button size="xs" variant="light" color="red" loading={signingOut} onClick={onSignOut} aria-label={`Sign out ${session.device}`}>
            Sign out
          </Button>
        )}
      </Group>
    </Card>
  );
}

/** Where the account is signed in, with a way to end any other session. */
export function SessionsCard() {
  const { api } = useHosted();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: api.sessions });
  const [signingOut, setSigningOut] = useState<string | null>(null);
  const [signingOutOthers, setSigningOutOthers] = useState(false);
  const list = sessions.data?.sessions;
  const others = list?.filter((session) => !session.current).length ?? 0;

  const signOut = async (id: string) => {
    setSigningOut(id);
    try {
      await api.revokeSession(id);
      notify.success(MESSAGES.sessionRevoked);
    } catch (error) {
      notify.error(hostedErrorMessage(error, SESSION_TEXTS.signOutFailed));
    } finally {
      setSigningOut(null);
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    }
  };

  const signOutOthers = async () => {
    setSigningOutOthers(true);
    try {
      const { revoked } = await api.revokeOtherSessions();
      notify.success(`${countOf(revoked, 'other session')} signed out`);
    } catch (error) {
      notify.error(hostedErrorMessage(error, SESSION_TEXTS.signOutOthersFailed));
    } finally {
      setSigningOutOthers(false);
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    }
  };

  return (
    <AccountSection title="Your sessions" description="Where your account is signed in. Sign out any session you don't recognize.">
      {sessions.isPending ? (
        <Stack gap="sm" aria-hidden>
          <Skeleton h={72} radius="md" />
          <Skeleton h={72} radius="md" />
        </Stack>
      ) : !list ? (
        <Group gap="sm">
          <Text size="sm" c="red" role="alert">
            {SESSION_TEXTS.sessionsLoadFailed}
          </Text>
          <Button size="xs" variant="default" onClick={() => void sessions.refetch()}>
            Try again
          </Button>
        </Group>
      ) : (
        <Stack gap="md">
          <Stack component="ul" gap="sm" m={0} p={0} aria-label="Your sessions" style={{ listStyle: 'none' }}>
            {list.map((session) => (
              <SessionItem key={session.id} session={session} signingOut={signingOut === session.id} onSignOut={() => void signOut(session.id)} />
            ))}
          </Stack>
          {others > 0 ? (
            <Group>
              <Button variant="default" loading={signingOutOthers} onClick={() => void signOutOthers()}>
                Sign out all other sessions
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              You are not signed in anywhere else.
            </Text>
          )}
        </Stack>
      )}
    </AccountSection>
  );
}
