import { useState } from 'react';
import { Badge, Button, Card, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import { MESSAGES } from '../../../shared/messages';
import type { OwnSession } from '../../../shared/schemas/sessions';
import { countOf, countryLabel, formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { SESSION_TEXTS } from '../../messages';
import type { SectionComponent } from '../settings/SettingsSection';

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
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={signingOut}
            onClick={onSignOut}
            aria-label={labelled ? `Sign out ${session.device}` : undefined}
          >
            Sign out
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

  const signOut = async (id: string) => {
    setSigningOut(id);
    try {
      await source.revoke(id);
      notify.success(MESSAGES.sessionRevoked);
    } catch (error) {
      notify.error(source.errorMessage(error, SESSION_TEXTS.signOutFailed));
    } finally {
      setSigningOut(null);
      await source.reload();
    }
  };

  const signOutOthers = async () => {
    setSigningOutOthers(true);
    try {
      const { revoked } = await source.revokeOthers();
      notify.success(`${countOf(revoked, 'other session')} signed out`);
    } catch (error) {
      notify.error(source.errorMessage(error, SESSION_TEXTS.signOutOthersFailed));
    } finally {
      setSigningOutOthers(false);
      await source.reload();
    }
  };

  return (
    <Section title="Your sessions" description="Where your account is signed in. Sign out any session you don't recognize.">
      {loading ? (
        <Stack gap="sm" aria-hidden>
          <Skeleton h={72} radius="md" />
          <Skeleton h={72} radius="md" />
        </Stack>
      ) : !sessions ? (
        <Group gap="sm">
          <Text size="sm" c="red" role="alert">
            {SESSION_TEXTS.sessionsLoadFailed}
          </Text>
          <Button size="xs" variant="default" onClick={onRetry}>
            Try again
          </Button>
        </Group>
      ) : (
        <Stack gap="md">
          <Stack component="ul" gap="sm" m={0} p={0} aria-label="Your sessions" style={{ listStyle: 'none' }}>
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
    </Section>
  );
}
