import { Checkbox, type CheckboxProps } from '@mantine/core';

/**
 * On a reset page: whoever opens a reset link may not be the one who added the account's passkeys and
 * connected services, so the reset removes them unless the owner ticks this.
 */
export function KeepSignInMethodsField(props: CheckboxProps) {
  return (
    <Checkbox
      label="Keep my passkeys and connected sign-ins"
      description="Leave this unticked if someone else may have added them: a reset removes them unless you keep them."
      {...props}
    />
  );
}
