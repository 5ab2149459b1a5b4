import { useState } from 'react';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import { hostedErrorMessage } from '../api';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { SESSION_KEY, useHosted } from '../HostedContext';
import { browser } from '../navigation';
import { useHostedT } from '../../i18n/useHostedT';

/**
 * An app asked to sign the user out without proving who it is (no id_token_hint): the user confirms
 * here; the provider's logout endpoint then sends them back to the app with the same parameters.
 */
export function SignOutPage() {
  const { api, paths, project } = useHosted();
  const { t } = useHostedT();
  const { search } = useLocation();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const signOut = async () => {
    setPending(true);
    setError(null);
    try {
      await api.logOut();
      queryClient.removeQueries({ queryKey: SESSION_KEY });
      browser.assign(paths.logout(search));
    } catch (failure) {
      setError(hostedErrorMessage(failure, t('signOut.failed')));
      setPending(false);
    }
  };

  return (
    <HostedPage documentTitle={t('common.signOut')} title={t('signOut.title', { app: project.name })}>
      <Stack gap="md">
        {error && <FormAlert>{error}</FormAlert>}
        <Text size="sm" c="dimmed" ta="center">
          {t('signOut.text', { app: project.name })}
        </Text>
        <Button fullWidth loading={pending} onClick={() => void signOut()}>
          {t('common.signOut')}
        </Button>
        <Anchor component={Link} to={paths.page('account')} size="sm" ta="center">
          {t('signOut.stay')}
        </Anchor>
      </Stack>
    </HostedPage>
  );
}
