import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { PasswordField } from '../../components/PasswordField';
import { AccountSection } from './AccountSection';
import { ChangePasswordFormSchema, resolver } from '../../forms';
import { notify } from '../../lib/notify';
import { MESSAGES, TOASTS } from '../../messages';
import { FormAlert } from '../components/FormAlert';
import { SESSIONS_KEY, useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';

/** A new password with the current one; the server signs out the account's other sessions. */
export function ChangePasswordCard() {
  const { api } = useHosted();
  const queryClient = useQueryClient();
  const { submitting: saving, error, submit } = useFormSubmit(TOASTS.changePasswordFailed);
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: resolver(ChangePasswordFormSchema),
  });

  const onSubmit = form.onSubmit((values) =>
    submit(async () => {
      await api.changePassword(values.currentPassword, values.newPassword);
      form.reset();
      notify.success(MESSAGES.passwordChanged);
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    }),
  );

  return (
    <AccountSection title="Password" description="Changing it signs you out everywhere else.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md" maw={420}>
          {error && <FormAlert>{error}</FormAlert>}
          <PasswordField label="Current password" autoComplete="current-password" required {...form.getInputProps('currentPassword')} />
          <NewPasswordFields password={form.getInputProps('newPassword')} confirmation={form.getInputProps('confirmPassword')} />
          <Group>
            <Button type="submit" loading={saving}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </AccountSection>
  );
}
