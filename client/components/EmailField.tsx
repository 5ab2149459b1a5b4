import { TextInput, type TextInputProps } from '@mantine/core';

/** The e-mail input of the sign-in, signup and forgot-password forms. */
export function EmailField(props: TextInputProps) {
  return <TextInput label="Email" type="email" placeholder="you@company.com" autoComplete="email" required {...props} />;
}
