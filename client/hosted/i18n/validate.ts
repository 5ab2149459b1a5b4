import type { ReactNode } from 'react';
import type { FormErrors } from '@mantine/form';

/** A form's rules with their fixed English messages shown in the page's language (useHostedT's `known`). */
export function translated<Values>(validate: (values: Values) => FormErrors, known: (text: string) => string) {
  return (values: Values): FormErrors =>
    Object.fromEntries(Object.entries(validate(values)).map(([field, message]) => [field, typeof message === 'string' ? known(message) : message]));
}

/** A field's error from a form whose rules are not ours to wrap (a shared hook's form), in the page's language. */
export function errorText(error: unknown, known: (text: string) => string): ReactNode {
  return typeof error === 'string' ? known(error) : (error as ReactNode);
}
