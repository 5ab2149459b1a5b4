import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PasswordField } from '../../components/PasswordField';
import { ChangePasswordFormSchema, resolver } from '../../forms';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { MESSAGES, TOASTS } from '../../messages';
import { SettingsSection } from '../../components/settings/SettingsSection';

export function ChangePasswordCard() {
  const changePassword = trpc.auth.changePassword.useMutation();
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: resolver(ChangePasswordFormSchema),
  });

  const onSubmit = form.onSubmit(async (values) => {
    try {
      await changePassword.mutateAsync({ current_password: values.currentPassword, new_password: values.newPassword });
      notify.success(MESSAGES.passwordChanged);
      form.reset();
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.changePasswordFailed));
    }
  });

  return (
    <SettingsSection title="Change password" description="Use a password you don't use anywhere else.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md" maw={420}>
          <PasswordField label="Current password" autoComplete="current-password" required {...form.getInputProps('currentPassword')} />
          <PasswordField label="New password" autoComplete="new-password" required {...form.getInputProps('newPassword')} />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <Group>
            <Button type="submit" loading={changePassword.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}
