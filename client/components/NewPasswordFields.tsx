import type { GetInputPropsReturnType } from '@mantine/form';
import { PasswordField } from './PasswordField';
import { useHostedT } from '../i18n/useHostedT';

/** A new password, with the rules it must follow, and its confirmation: sign-up, reset and change password. */
export function NewPasswordFields({
  label,
  confirmLabel,
  password,
  confirmation,
}: {
  label?: string;
  confirmLabel?: string;
  password: GetInputPropsReturnType;
  confirmation: GetInputPropsReturnType;
}) {
  const { t } = useHostedT();
  return (
    <>
      <PasswordField
        label={label ?? t('common.newPassword')}
        description={t('common.passwordRules')}
        autoComplete="new-password"
        required
        {...password}
      />
      <PasswordField label={confirmLabel ?? t('common.confirmNewPassword')} autoComplete="new-password" required {...confirmation} />
    </>
  );
}
