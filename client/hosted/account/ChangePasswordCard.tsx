import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { PasswordField } from '../../components/PasswordField';
import { AccountSection } from './AccountSection';
import { ChangePasswordFormSchema, resolver } from '../../forms';
import { notify } from '../../lib/notify';
import { FormAlert } from '../components/FormAlert';
import { SESSIONS_KEY, useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';
import { useHostedT } from '../../i18n/useHostedT';
import { translated } from '../i18n/validate';

/** A new password with the current one; the server signs out the account's other sessions. */
export function ChangePasswordCard() {
  const { api } = useHosted();
  const { t, known } = useHostedT();
  const queryClient = useQueryClient();
  const { submitting: saving, error, submit } = useFormSubmit(t('msg.changePasswordFailed'));
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: translated(resolver(ChangePasswordFormSchema), known),
  });

  const onSubmit = form.onSubmit((values) =>
    submit(async () => {
      await api.changePassword(values.currentPassword, values.newPassword);
      form.reset();
      notify.success(t('msg.passwordChanged'));
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    }),
  );

  return (
    <AccountSection title={t('account.passwordTitle')} description={t('account.passwordHelp')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md" maw={420}>
          {error && <FormAlert>{error}</FormAlert>}
          <PasswordField label={t('common.currentPassword')} autoComplete="current-password" required {...form.getInputProps('currentPassword')} />
          <NewPasswordFields password={form.getInputProps('newPassword')} confirmation={form.getInputProps('confirmPassword')} />
          <Group>
            <Button type="submit" loading={saving}>
              {t('account.changePassword')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AccountSection>
  );
}
