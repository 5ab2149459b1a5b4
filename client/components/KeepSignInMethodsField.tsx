import { Checkbox, type CheckboxProps } from '@mantine/core';
import { useHostedT } from '../i18n/useHostedT';

/**
 * On a reset page: whoever opens a reset link may not be the one who added the account's passkeys and
 * connected services, so the reset removes them unless the owner ticks this.
 */
export function KeepSignInMethodsField(props: CheckboxProps) {
  const { t } = useHostedT();
  return (
    <Checkbox
      label={t('reset.keep')}
      description={t('reset.keepHelp')}
      {...props}
    />
  );
}
