import { Alert, Anchor } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useLocalOutbox } from './useLocalOutbox';

/** After a sign-up in the local demo: where the verification mail went, since no mail server is set up. */
export function LocalMailHint({ enabled }: { enabled: boolean }) {
  const { available } = useLocalOutbox(enabled);
  if (!available) return null;
  return (
    <Alert color="blue" variant="light" icon={<IconMail size={18} />} role="note">
      Local demo: no mail server is set up, so mails are kept on this machine.{' '}
      <Anchor component={Link} to="/mail" fw={600}>
        Open Mail
      </Anchor>{' '}
      to find your verification link.
    </Alert>
  );
}
