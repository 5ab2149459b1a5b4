import { Alert } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { MESSAGES } from '../../../shared/messages';

/**
 * In place of a button that would add a way into an account whose address is not verified yet: the
 * server refuses it (403), so that whoever typed someone else's address cannot keep a way in.
 */
export function VerifyFirstNotice({ what }: { what: string }) {
  return (
    <Alert variant="light" color="yellow" icon={<IconMailExclamation size={18} />} title={MESSAGES.verifyEmailFirst}>
      {what} can be added once your e-mail address is verified: open the link we mailed you.
    </Alert>
  );
}
