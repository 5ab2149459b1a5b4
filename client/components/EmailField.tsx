import { TextInput, type TextInputProps } from '@mantine/core';
import { useHostedT } from '../i18n/useHostedT';

/** The e-mail input of the sign-in, signup and forgot-password forms. */
export function EmailField(props: TextInputProps) {
  const { t } = useHostedT();
  return <TextInput label={t('common.email')} type="email" placeholder="you@company.com" autoComplete="email" required {...props} />;
}
