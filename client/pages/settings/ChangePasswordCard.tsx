import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useStepUp } from '../../components/account/StepUp';
import { PasswordField } from '../../components/PasswordField';
import { ChangePasswordFormSchema, FirstPasswordFormSchema, resolver } from '../../forms';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { StepUpCancelled } from '../../lib/step-up';
import { trpc } from '../../lib/trpc';
import { MESSAGES, TOASTS } from '../../messages';
import { SettingsSection } from '../../components/settings/SettingsSection';

/**
 * Settings → Security: a new password with the current one; an account without one (it signs in with
 * a provider or a passkey) sets its first, proving who it is in the step-up dialog instead.
 */
export function ChangePasswordCard() {
  const changePassword = trpc.auth.changePassword.useMutation();
  const methods = trpc.social.identities.useQuery();
  const utils = trpc.useUtils();
  // Until the account's ways in are known, ask for the current password as before.
  const hasPassword = methods.data?.has_password ?? true;
  const stepUp = useStepUp();
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: (values) => resolver(hasPassword ? ChangePasswordFormSchema : FirstPasswordFormSchema)(values),
  });

  const onSubmit = form.onSubmit(async (values) => {
    try {
      await stepUp.guard(() =>
        changePassword.mutateAsync(hasPassword ? { current_password: values.currentPassword, new_password: values.newPassword } : { new_password: values.newPassword }),
      );
      notify.success(MESSAGES.passwordChanged);
      form.reset();
      await utils.social.identities.invalidate();
    } catch (error) {
      if (!(error instanceof StepUpCancelled)) notify.error(errorMessage(error, TOASTS.changePasswordFailed));
    }
  });

  return (
    <SettingsSection
      title={hasPassword ? 'Change password' : 'Set a password'}
      description={hasPassword ? "Use a password you don't use anywhere else." : 'You sign in with a provider or a passkey. A password gives you another way in.'}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md" maw={420}>
          {hasPassword && <PasswordField label="Current password" autoComplete="current-password" required {...form.getInputProps('currentPassword')} />}
          <PasswordField label="New password" autoComplete="new-password" required {...form.getInputProps('newPassword')} />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <Group>
            <Button type="submit" loading={changePassword.isPending}>
              {hasPassword ? 'Change password' : 'Set password'}
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}
