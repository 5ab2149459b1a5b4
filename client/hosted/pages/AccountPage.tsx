import { useEffect, useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconLogout } from '@tabler/icons-react';
import { Navigate, useNavigate } from 'react-router-dom';
import { FullPageLoader } from '../../auth/ProtectedRoute';
import { SocialReturnNotice } from '../../components/account/SocialReturnNotice';
import { ChangeEmailCard } from '../account/ChangeEmailCard';
import { ChangePasswordCard } from '../account/ChangePasswordCard';
import { DeleteAccountCard } from '../account/DeleteAccountCard';
import { LanguageCard } from '../account/LanguageCard';
import { OrganizationsCard } from '../account/OrganizationsCard';
import { HostedStepUp } from '../account/HostedStepUp';
import { PasskeysCard } from '../account/PasskeysCard';
import { ProfileCard } from '../account/ProfileCard';
import { SessionsCard } from '../account/SessionsCard';
import { SignInMethodsCard } from '../account/SignInMethodsCard';
import { TwoFactorCard } from '../account/TwoFactorCard';
import { ApiError } from '../../lib/api-client';
import { BackToApp } from '../components/BackToApp';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { PROFILE_KEY, SESSION_KEY, useHosted } from '../HostedContext';
import { useHostedT } from '../../i18n/useHostedT';

/**
 * The end user's own account: names, address, password, sessions, two factors, passkeys and connected
 * providers, deleting it, signing out, and the way back to the app.
 */
export function AccountPage() {
  const { api, paths, adoptSavedLocale } = useHosted();
  const { t } = useHostedT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: api.profile });
  const [signingOut, setSigningOut] = useState(false);
  // The saved language applies once known (under a language chosen for this visit).
  const savedLocale = profile.data?.locale ?? null;
  useEffect(() => adoptSavedLocale(savedLocale), [savedLocale, adoptSavedLocale]);

  if (profile.isPending) return <FullPageLoader />;
  if (profile.error instanceof ApiError && profile.error.status === 401) {
    return <Navigate to={paths.page('sign-in')} replace state={{ message: t('account.signInFirst') }} />;
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
    navigate(paths.page('signed-out'), { replace: true, state: { message: t('account.deleted') } });
  };

  const actions = (
    <Group gap="xs" wrap="wrap" justify="flex-end">
      <BackToApp />
      <Button variant="default" leftSection={<IconLogout size={16} />} loading={signingOut} onClick={() => void signOut()}>
        {t('common.signOut')}
      </Button>
    </Group>
  );

  const user = profile.data;
  return (
    <HostedPage documentTitle={t('account.title')} title={t('account.title')} subtitle={user?.email} actions={actions} size={720} plain>
      {!user ? (
        <Stack gap="sm">
          <FormAlert>{t('account.loadFailed')}</FormAlert>
          <Group>
            <Button variant="default" onClick={() => void profile.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <HostedStepUp>
          <Stack gap="lg">
            <SocialReturnNotice />
            <ProfileCard user={user} />
            <OrganizationsCard />
            <LanguageCard />
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
