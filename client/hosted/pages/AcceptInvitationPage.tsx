import { Avatar, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { MyOrganization } from '../../../shared/schemas/organizations';
import { ApiError } from '../../lib/api-client';
import { useHostedT } from '../../i18n/useHostedT';
import { hostedErrorMessage } from '../api';
import { BackToApp } from '../components/BackToApp';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { ORGANIZATIONS_KEY, PROFILE_KEY, SESSION_KEY, useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';

/**
 * An organization invitation's link (`?token=`): what it is for, then sign in or sign up with the
 * invited address (coming back here), accept, and switch into the organization.
 */
export function AcceptInvitationPage() {
  const { api, paths } = useHosted();
  const { t, known, formatDate } = useHostedT();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = params.get('token') ?? '';
  const preview = useQuery({ queryKey: ['invitation', token], queryFn: () => api.previewInvitation(token), enabled: Boolean(token) });
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: api.profile, enabled: Boolean(token) });
  const [accepted, setAccepted] = useState<MyOrganization | null>(null);
  const accept = useFormSubmit(t('invite.failed'));
  const switching = useFormSubmit(t('org.switchFailed'));
  const title = t('invite.title');

  const page = (content: React.ReactNode) => (
    <HostedPage documentTitle={title} title={title}>
      {content}
    </HostedPage>
  );

  if (!token) return page(<StatusPanel kind="invalid" title={t('invite.unavailable')}>{t('invite.noToken')}</StatusPanel>);
  if (preview.isPending || profile.isPending) return page(<StatusPanel kind="loading" title={t('invite.checking')} />);

  if (accepted) {
    const switchIn = () =>
      switching.submit(async () => {
        await api.switchOrganization(accepted.id);
        queryClient.removeQueries({ queryKey: SESSION_KEY });
        navigate(paths.page('account'), { replace: true });
      });
    return page(
      <StatusPanel
        kind="success"
        title={t('invite.accepted', { organization: accepted.name })}
        actions={
          <Stack gap="sm" align="center" mt="xs">
            {switching.error && <FormAlert>{switching.error}</FormAlert>}
            <Group justify="center" gap="sm">
              <Button onClick={() => void switchIn()} loading={switching.submitting} data-autofocus>
                {t('org.switchTo', { name: accepted.name })}
              </Button>
              <Button component={Link} to={paths.page('account')} variant="default">
                {t('invite.openAccount')}
              </Button>
            </Group>
            <BackToApp variant="subtle" />
          </Stack>
        }
      >
        {t('invite.acceptedText', { role: accepted.role })}
      </StatusPanel>,
    );
  }

  if (preview.isError) {
    return page(
      <StatusPanel kind="error" title={t('invite.unavailable')} actions={<BackToApp mt="xs" />}>
        {known(hostedErrorMessage(preview.error, t('invite.failed')))}
      </StatusPanel>,
    );
  }

  const invitation = preview.data;
  const signedOut = profile.error instanceof ApiError && profile.error.status === 401;
  const user = profile.data;
  const here = `${location.pathname}${location.search}`;
  const otherAddress = user && user.email.toLowerCase() !== invitation.email.toLowerCase();

  const onAccept = () =>
    accept.submit(async () => {
      const organization = await api.acceptInvitation(token);
      await queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
      setAccepted(organization);
    });

  const signInAsInvited = async () => {
    try {
      await api.logOut();
    } finally {
      queryClient.removeQueries({ queryKey: SESSION_KEY });
      navigate(paths.page('sign-in', { return_to: here, login_hint: invitation.email }));
    }
  };

  return page(
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap">
        <Avatar src={invitation.organization.logo_url} radius="md" size="lg" color="initials" name={invitation.organization.name} alt="" />
        <div style={{ minWidth: 0 }}>
          <Text fw={700} fz="lg" style={{ overflowWrap: 'anywhere' }}>
            {t('invite.heading', { organization: invitation.organization.name })}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('invite.details', { email: invitation.email, role: invitation.role, date: formatDate(invitation.expires_at) })}
          </Text>
        </div>
      </Group>
      {accept.error && <FormAlert>{accept.error}</FormAlert>}
      {signedOut || !user ? (
        <>
          <Text size="sm">{t('invite.signInFirst', { email: invitation.email })}</Text>
          <Group gap="sm" grow>
            <Button component={Link} to={paths.page('sign-in', { return_to: here, login_hint: invitation.email })}>
              {t('common.signIn')}
            </Button>
            <Button component={Link} to={paths.page('sign-up', { return_to: here })} variant="default">
              {t('common.signUp')}
            </Button>
          </Group>
        </>
      ) : otherAddress ? (
        <>
          <FormAlert>{t('invite.otherAccount', { email: user.email, invited: invitation.email })}</FormAlert>
          <Button onClick={() => void signInAsInvited()} variant="default">
            {t('invite.useOtherAccount')}
          </Button>
        </>
      ) : (
        <Button onClick={() => void onAccept()} loading={accept.submitting} fullWidth>
          {t('invite.accept')}
        </Button>
      )}
    </Stack>,
  );
}
