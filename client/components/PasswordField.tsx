import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** A password input whose show/hide toggle is labelled and keyboard reachable. */
export function PasswordField(props: PasswordInputProps) {
  return (
    <PasswordInput
      visibilityToggleButtonProps={{ 'aria-label': `Show ${String(props.label ?? 'password').toLowerCase()}`, tabIndex: 0 }}
      {...props}
    />
  );
}
