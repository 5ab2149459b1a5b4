import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { PasswordField } from '../../components/PasswordField';
import { AccountSection } from './AccountSection';
import { ChangePasswordFormSchema, FirstPasswordFormSchema, resolver } from '../../forms';
import { useStepUp } from '../../components/account/StepUp';
import { StepUpCancelled } from '../../lib/step-up';
import { notify } from '../../lib/notify';
import { FormAlert } from '../components/FormAlert';
import { IDENTITIES_KEY, SESSIONS_KEY, useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';
import { useHostedT } from '../../i18n/useHostedT';
import { translated } from '../i18n/validate';

/**
 * A new password with the current one; an account without one (a provider or a passkey only) sets its
 * first, proving who it is in the step-up dialog instead. The server signs out the account's other sessions.
 */
export function ChangePasswordCard() {
  const { api } = useHosted();
  const { t, known } = useHostedT();
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const methods = useQuery({ queryKey: IDENTITIES_KEY, queryFn: api.identities });
  // Until the account's ways in are known, ask for the current password as before.
  const hasPassword = methods.data?.has_password ?? true;
  const { submitting: saving, error, submit } = useFormSubmit(t('msg.changePasswordFailed'));
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: translated((values) => resolver(hasPassword ? ChangePasswordFormSchema : FirstPasswordFormSchema)(values), known),
  });

  const onSubmit = form.onSubmit((values) =>
    submit(async () => {
      try {
        await stepUp.guard(() => api.changePassword(hasPassword ? values.currentPassword : undefined, values.newPassword));
      } catch (failure) {
        if (failure instanceof StepUpCancelled) return;
        throw failure;
      }
      form.reset();
      notify.success(t('msg.passwordChanged'));
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
      await queryClient.invalidateQueries({ queryKey: IDENTITIES_KEY });
    }),
  );

  return (
    <AccountSection title={t('account.passwordTitle')} description={hasPassword ? t('account.passwordHelp') : t('account.setPasswordHelp')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md" maw={420}>
          {error && <FormAlert>{error}</FormAlert>}
          {hasPassword && <PasswordField label={t('common.currentPassword')} autoComplete="current-password" required {...form.getInputProps('currentPassword')} />}
          <NewPasswordFields password={form.getInputProps('newPassword')} confirmation={form.getInputProps('confirmPassword')} />
          <Group>
            <Button type="submit" loading={saving}>
              {hasPassword ? t('account.changePassword') : t('account.setPassword')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AccountSection>
  );
}
