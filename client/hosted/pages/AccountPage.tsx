import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconLogout } from '@tabler/icons-react';
import { Navigate, useNavigate } from 'react-router-dom';
import { FullPageLoader } from '../../auth/ProtectedRoute';
import { SocialReturnNotice } from '../../components/account/SocialReturnNotice';
import { ChangeEmailCard } from '../account/ChangeEmailCard';
import { ChangePasswordCard } from '../account/ChangePasswordCard';
import { DeleteAccountCard } from '../account/DeleteAccountCard';
import { HostedStepUp } from '../account/HostedStepUp';
import { PasskeysCard } from '../account/PasskeysCard';
import { ProfileCard } from '../account/ProfileCard';
import { SessionsCard } from '../account/SessionsCard';
import { SignInMethodsCard } from '../account/SignInMethodsCard';
import { TwoFactorCard } from '../account/TwoFactorCard';
import { HostedApiError } from '../api';
import { BackToApp } from '../components/BackToApp';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { PROFILE_KEY, SESSION_KEY, useHosted } from '../HostedContext';

/**
 * The end user's own account: names, address, password, sessions, two factors, passkeys and connected
 * providers, deleting it, signing out, and the way back to the app.
 */
export function AccountPage() {
  const { api, paths } = useHosted();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: api.profile });
  const [signingOut, setSigningOut] = useState(false);

  if (profile.isPending) return <FullPageLoader />;
  if (profile.error instanceof HostedApiError && profile.error.status === 401) {
    return <Navigate to={paths.page('sign-in')} replace state={{ message: 'Sign in to see your account.' }} />;
  }

  const signOut = async () => {
    setSigningOut(true);
    try {
      await api.logOut();
    } finally {
      queryClient.removeQueries({ queryKey: SESSION_KEY });
      navigate(paths.page('signed-out'), { replace: true });
    }
  };

  const deleted = () => {
    queryClient.removeQueries({ queryKey: SESSION_KEY });
    navigate(paths.page('signed-out'), { replace: true, state: { message: 'Your account was deleted.' } });
  };

  const actions = (
    <Group gap="xs" wrap="wrap" justify="flex-end">
      <BackToApp />
      <Button variant="default" leftSection={<IconLogout size={16} />} loading={signingOut} onClick={() => void signOut()}>
        Sign out
      </Button>
    </Group>
  );

  const user = profile.data;
  return (
    <HostedPage documentTitle="Your account" title="Your account" subtitle={user?.email} actions={actions} size={720} plain>
      {!user ? (
        <Stack gap="sm">
          <FormAlert>Your account could not be loaded.</FormAlert>
          <Group>
            <Button variant="default" onClick={() => void profile.refetch()}>
              Try again
            </Button>
          </Group>
        </Stack>
      ) : (
        <HostedStepUp>
          <Stack gap="lg">
            <SocialReturnNotice />
            <ProfileCard user={user} />
            <ChangeEmailCard currentEmail={user.email} />
            <ChangePasswordCard />
            <SessionsCard />
            <TwoFactorCard enabled={user.mfa_enabled} verified={user.is_verified} />
            <PasskeysCard verified={user.is_verified} />
            <SignInMethodsCard verified={user.is_verified} />
            <DeleteAccountCard onDeleted={deleted} />
          </Stack>
        </HostedStepUp>
      )}
    </HostedPage>
  );
}
