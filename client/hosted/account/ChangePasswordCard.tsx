import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { PasswordField } from '../../components/PasswordField';
import { AccountSection } from './AccountSection';
import { ChangePasswordFormSchema, resolver } from '../../forms';
import { notify } from '../../lib/notify';
import { MESSAGES, TOASTS } from '../../messages';
import { hostedErrorMessage } from '../api';
import { FormAlert } from '../components/FormAlert';
import { SESSIONS_KEY, useHosted } from '../HostedContext';

/** A new password with the current one; the server signs out the account's other sessions. */
export function ChangePasswordCard() {
  const { api } = useHosted();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: resolver(ChangePasswordFormSchema),
  });

  const onSubmit = form.onSubmit(async (values) => {
    setSaving(true);
    setError(null);
    try {
      await api.changePassword(values.currentPassword, values.newPassword);
      form.reset();
      notify.success(MESSAGES.passwordChanged);
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    } catch (failure) {
      setError(hostedErrorMessage(failure, TOASTS.changePasswordFailed));
    } finally {
      setSaving(false);
    }
  });

  return (
    <AccountSection title="Password" description="Changing it signs you out everywhere else.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md" maw={420}>
          {error && <FormAlert>{error}</FormAlert>}
          <PasswordField label="Current password" autoComplete="current-password" required {...form.getInputProps('currentPassword')} />
          <PasswordField
            label="New password"
            description="At least 8 characters, with an uppercase letter, a lowercase letter and a number"
            autoComplete="new-password"
            required
            {...form.getInputProps('newPassword')}
          />
          <PasswordField label="Confirm new password" autoComplete="new-password" required {...form.getInputProps('confirmPassword')} />
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
