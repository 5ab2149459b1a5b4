import { useState } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { IconMailForward } from '@tabler/icons-react';
import { ChangeEmailFormSchema, ChangeEmailWithoutPasswordFormSchema, resolver } from '../../forms';
import { StepUpCancelled } from '../../lib/step-up';
import { useStepUp } from '../../components/account/StepUp';
import { PasswordField } from '../../components/PasswordField';
import { hostedErrorMessage } from '../api';
import { FormAlert } from '../components/FormAlert';
import { IDENTITIES_KEY, useHosted } from '../HostedContext';
import { AccountSection } from './AccountSection';
import { useHostedT } from '../../i18n/useHostedT';
import { HostedTrans } from '../../i18n/HostedTrans';
import { translated } from '../i18n/validate';

/**
 * A new e-mail address, with the password (an account without one proves who it is in the step-up
 * dialog instead); the change is made by the link mailed to the new address (ConfirmEmailChangePage).
 */
export function ChangeEmailCard({ currentEmail }: { currentEmail: string }) {
  const { api } = useHosted();
  const { t, known } = useHostedT();
  const stepUp = useStepUp();
  const methods = useQuery({ queryKey: IDENTITIES_KEY, queryFn: api.identities });
  const hasPassword = methods.data?.has_password ?? true;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { newEmail: '', password: '' },
    validate: translated((values) => resolver(hasPassword ? ChangeEmailFormSchema : ChangeEmailWithoutPasswordFormSchema)(values), known),
  });

  const onSubmit = form.onSubmit(async (values) => {
    setError(null);
    setSaving(true);
    try {
      const newEmail = values.newEmail.trim();
      await stepUp.guard(() => api.changeEmail(newEmail, hasPassword ? values.password : undefined));
      form.reset();
      setSentTo(newEmail);
    } catch (failure) {
      if (!(failure instanceof StepUpCancelled)) setError(hostedErrorMessage(failure, t('msg.changeEmailFailed')));
    } finally {
      setSaving(false);
    }
  });

  return (
    <AccountSection title={t('account.emailTitle')} description={t('account.emailHelp', { email: currentEmail })}>
      {sentTo ? (
        <Stack gap="sm">
          <FormAlert kind="success">
            <HostedTrans
              i18nKey="account.emailSent"
              values={{ email: sentTo, current: currentEmail }}
              components={{ b: <Text span fw={700} style={{ overflowWrap: 'anywhere' }} /> }}
            />
          </FormAlert>
          <Group>
            <Button variant="default" onClick={() => setSentTo(null)}>
              {t('common.done')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label={t('account.changeEmail')}>
          <Stack gap="md" maw={420}>
            {error && <FormAlert>{error}</FormAlert>}
            <TextInput label={t('account.newEmail')} type="email" autoComplete="email" required {...form.getInputProps('newEmail')} />
            {hasPassword && <PasswordField label={t('common.currentPassword')} autoComplete="current-password" required {...form.getInputProps('password')} />}
            <Group>
              <Button type="submit" variant="light" leftSection={<IconMailForward size={16} />} loading={saving}>
                {t('account.sendConfirmation')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AccountSection>
  );
}
