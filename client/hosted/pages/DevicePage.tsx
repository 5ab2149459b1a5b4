import { useEffect, useRef, useState } from 'react';
import { Button, Group, List, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconCheck, IconDeviceTv } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { DeviceRequest } from '../../../shared/schemas/device-flow';
import { ApiError } from '../../lib/api-client';
import { useHostedT } from '../../i18n/useHostedT';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { PROFILE_KEY, SESSION_KEY, useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';

const SCOPE_KEYS: Record<string, string> = {
  openid: 'device.scope.openid',
  email: 'device.scope.email',
  profile: 'device.scope.profile',
  offline_access: 'device.scope.offline_access',
  organizations: 'device.scope.organizations',
};

/** As the device shows it: XXXX-XXXX, letters only, upper case. */
function formatTyped(value: string): string {
  const letters = value.toUpperCase().replace(/[^A-Z]/g, '').slice(0, 8);
  return letters.length > 4 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

/**
 * The device flow's page (RFC 8628 §3.3): the user types the code their TV or CLI shows (or arrives
 * with it in `?user_code=` from the device's link or QR code), sees which app asks and for what, signs
 * in if needed (coming back here), then approves or denies. The device's next poll hears the answer.
 */
export function DevicePage() {
  const { api, paths } = useHosted();
  const { t, known } = useHostedT();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [code, setCode] = useState(() => formatTyped(params.get('user_code') ?? ''));
  const [request, setRequest] = useState<DeviceRequest | null>(null);
  const [outcome, setOutcome] = useState<'approved' | 'denied' | null>(null);
  const lookup = useFormSubmit(t('device.failed'));
  const answer = useFormSubmit(t('device.failed'));
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: api.profile });
  const title = t('device.title');

  const lookUp = (typed: string) =>
    lookup.submit(async () => {
      setRequest(await api.lookUpDeviceCode(typed));
    });

  // A link with the code (verification_uri_complete) shows the request at once; approving stays a click.
  const looked = useRef(false);
  useEffect(() => {
    if (looked.current || !params.get('user_code')) return;
    looked.current = true;
    void lookUp(formatTyped(params.get('user_code') ?? ''));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const page = (content: React.ReactNode, subtitle?: string) => (
    <HostedPage documentTitle={title} title={title} subtitle={subtitle}>
      {content}
    </HostedPage>
  );

  if (outcome) {
    return page(
      <StatusPanel kind={outcome === 'approved' ? 'success' : 'invalid'} title={t(outcome === 'approved' ? 'device.approved' : 'device.denied')}>
        {t(outcome === 'approved' ? 'device.approvedText' : 'device.deniedText')}
      </StatusPanel>,
    );
  }

  if (!request) {
    if (lookup.submitting && !code) return page(<StatusPanel kind="loading" title={t('device.checking')} />);
    return page(
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void lookUp(code);
        }}
      >
        <Stack gap="md">
          {lookup.error && <FormAlert>{lookup.error}</FormAlert>}
          <TextInput
            label={t('device.codeLabel')}
            value={code}
            onChange={(event) => setCode(formatTyped(event.currentTarget.value))}
            placeholder="XXXX-XXXX"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            size="lg"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.2em', textAlign: 'center' } }}
            data-autofocus
            autoFocus
          />
          <Button type="submit" fullWidth loading={lookup.submitting} disabled={code.replace('-', '').length !== 8}>
            {t('device.continue')}
          </Button>
        </Stack>
      </form>,
      t('device.intro'),
    );
  }

  const signedOut = profile.error instanceof ApiError && profile.error.status === 401;
  const user = profile.data;
  const here = `${location.pathname}?${new URLSearchParams({ user_code: request.user_code })}`;

  const decide = (approve: boolean) =>
    answer.submit(async () => {
      await (approve ? api.approveDevice(request.user_code) : api.denyDevice(request.user_code));
      setOutcome(approve ? 'approved' : 'denied');
    });

  const useOtherAccount = async () => {
    try {
      await api.logOut();
    } finally {
      queryClient.removeQueries({ queryKey: SESSION_KEY });
      navigate(paths.page('sign-in', { return_to: here }));
    }
  };

  return page(
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size={44} radius="md" variant="light" aria-hidden>
          <IconDeviceTv size={26} />
        </ThemeIcon>
        <div style={{ minWidth: 0 }}>
          <Text fw={700} fz="lg" style={{ overflowWrap: 'anywhere' }}>
            {t('device.heading', { app: request.app_name })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('device.matchCode', { code: request.user_code })}
          </Text>
        </div>
      </Group>
      <div>
        <Text size="sm" fw={600} mb={4}>
          {t('device.asks')}
        </Text>
        <List
          size="sm"
          spacing={4}
          icon={
            <ThemeIcon size={18} radius="xl" variant="light" color="teal">
              <IconCheck size={12} />
            </ThemeIcon>
          }
        >
          {request.scopes.map((scope) => (
            <List.Item key={scope}>{SCOPE_KEYS[scope] ? t(SCOPE_KEYS[scope]) : scope}</List.Item>
          ))}
        </List>
      </div>
      {answer.error && <FormAlert>{known(answer.error)}</FormAlert>}
      {profile.isPending ? null : signedOut || !user ? (
        <>
          <Text size="sm">{t('device.signInFirst')}</Text>
          <Group gap="sm" grow>
            <Button component={Link} to={paths.page('sign-in', { return_to: here })}>
              {t('common.signIn')}
            </Button>
            <Button component={Link} to={paths.page('sign-up', { return_to: here })} variant="default">
              {t('common.signUp')}
            </Button>
          </Group>
        </>
      ) : (
        <>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('device.signedInAs', { email: user.email })}{' '}
            <Button variant="subtle" size="compact-sm" onClick={() => void useOtherAccount()}>
              {t('device.useOtherAccount')}
            </Button>
          </Text>
          <Group gap="sm" grow>
            <Button variant="default" onClick={() => void decide(false)} disabled={answer.submitting}>
              {t('device.deny')}
            </Button>
            <Button onClick={() => void decide(true)} loading={answer.submitting}>
              {t('device.approve')}
            </Button>
          </Group>
        </>
      )}
      <Button
        variant="subtle"
        size="compact-sm"
        onClick={() => {
          setRequest(null);
          setCode('');
          navigate(paths.page('device'), { replace: true });
        }}
      >
        {t('device.otherCode')}
      </Button>
    </Stack>,
  );
}
