import { Text } from '@mantine/core';

/** What a forgot-password form says once it has sent: the same words whether or not the address has an account. */
export function ResetLinkSentText({ email }: { email: string }) {
  return (
    <Text>
      If an account exists for{' '}
      <Text span fw={700}>
        {email}
      </Text>
      , we&apos;ve sent a link to reset your password.
    </Text>
  );
}
