import { Anchor } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useHosted } from '../HostedContext';
import { useContinuation } from '../useInteraction';
import { useHostedT } from '../../i18n/useHostedT';

/** The "Back to sign in" link under a card, keeping a pending app sign-in. */
export function BackToSignIn({ label }: { label?: string }) {
  const { paths } = useHosted();
  const { t } = useHostedT();
  const continuation = useContinuation();
  return (
    <Anchor component={Link} to={paths.page('sign-in', { ...continuation })} size="sm">
      {label ?? t('common.backToSignIn')}
    </Anchor>
  );
}
