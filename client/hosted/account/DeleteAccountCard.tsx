import { useState, type FormEvent } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconTrash } from '@tabler/icons-react';
import { useStepUp } from '../../components/account/StepUp';
import { PasswordField } from '../../components/PasswordField';
import { StepUpCancelled } from '../../lib/step-up';
import { DELETE_CONFIRM_WORD } from '../../messages';
import { hostedErrorMessage } from '../api';
import { FormAlert } from '../components/FormAlert';
import { IDENTITIES_KEY, useHosted } from '../HostedContext';
import { AccountSection } from './AccountSection';
import { useHostedT } from '../../i18n/useHostedT';

/**
 * Deletes the end user's account for good: the word DELETE and the password, or for an account without
 * one a proof in the step-up dialog. `onDeleted` leaves the page (the session is gone with the account).
 */
export function DeleteAccountCard({ onDeleted }: { onDeleted: () => void }) {
  const { api, project } = useHosted();
  const { t } = useHostedT();
  const stepUp = useStepUp();
  const methods = useQuery({ queryKey: IDENTITIES_KEY, queryFn: api.identities });
  const hasPassword = methods.data?.has_password ?? true;
  const [confirming, setConfirming] = useState(false);
  const [word, setWord] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const matches = word === DELETE_CONFIRM_WORD;

  const onDelete = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!matches || (hasPassword && !password)) return;
    setError(null);
    setDeleting(true);
    try {
      await stepUp.guard(() => api.deleteAccount(hasPassword ? password : undefined));
      onDeleted();
    } catch (failure) {
      if (!(failure instanceof StepUpCancelled)) setError(hostedErrorMessage(failure, t('msg.deleteAccountFailed')));
      setDeleting(false);
    }
  };

  const cancel = () => {
    setConfirming(false);
    setWord('');
    setPassword('');
    setTouched(false);
    setError(null);
  };

  return (
    <AccountSection title={t('account.deleteTitle')} description={t('account.deleteHelp', { app: project.name })}>
      {!confirming ? (
        <Group>
          <Button color="red" variant="outline" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
            {t('account.deleteTitle')}
          </Button>
        </Group>
      ) : (
        <form onSubmit={(event) => void onDelete(event)} noValidate aria-label={t('account.deleteTitle')}>
          <Stack gap="sm" maw={420}>
            {error && <FormAlert>{error}</FormAlert>}
            <Text size="sm">{hasPassword ? t('account.deleteWithPassword') : t('account.deleteWithStepUp')}</Text>
            <TextInput
              label={t('account.typeToConfirm', { word: DELETE_CONFIRM_WORD })}
              value={word}
              onChange={(event) => setWord(event.currentTarget.value)}
              onBlur={() => setTouched(true)}
              error={(touched || word.length > 0) && !matches ? t('msg.deleteConfirm') : undefined}
              autoComplete="off"
              data-autofocus
            />
            {hasPassword && (
              <PasswordField
                label={t('common.currentPassword')}
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                error={touched && !password ? t('msg.currentPasswordRequired') : undefined}
                autoComplete="current-password"
              />
            )}
            <Group gap="sm">
              <Button type="submit" color="red" disabled={!matches} loading={deleting}>
                {t('account.deleteForGood')}
              </Button>
              <Button variant="default" onClick={cancel} disabled={deleting}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AccountSection>
  );
}
