import type { GetInputPropsReturnType } from '@mantine/form';
import { PasswordField } from './PasswordField';

/** A new password, with the rules it must follow, and its confirmation: sign-up, reset and change password. */
export function NewPasswordFields({
  label = 'New password',
  confirmLabel = 'Confirm new password',
  password,
  confirmation,
}: {
  label?: string;
  confirmLabel?: string;
  password: GetInputPropsReturnType;
  confirmation: GetInputPropsReturnType;
}) {
  return (
    <>
      <PasswordField
        label={label}
        description="At least 8 characters, with an uppercase letter, a lowercase letter and a number"
        autoComplete="new-password"
        required
        {...password}
      />
      <PasswordField label={confirmLabel} autoComplete="new-password" required {...confirmation} />
    </>
  );
}
