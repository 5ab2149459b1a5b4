import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useHostedT } from '../i18n/useHostedT';

/** A password input whose show/hide toggle is labelled and keyboard reachable. */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useHostedT();
  return (
    <PasswordInput
      visibilityToggleButtonProps={{ 'aria-label': t('common.showField', { field: String(props.label ?? t('common.password')) }), tabIndex: 0 }}
      {...props}
    />
  );
}
