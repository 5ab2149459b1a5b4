import type { ComponentProps } from 'react';
import { Trans } from 'react-i18next';
import { useHostedT } from './useHostedT';

/** react-i18next's Trans (a string with <b>…</b> rendered as components) over useHostedT's instance. */
export function HostedTrans(props: Omit<ComponentProps<typeof Trans>, 't' | 'i18n'>) {
  const { t, i18n } = useHostedT();
  return <Trans t={t} i18n={i18n} {...props} />;
}
