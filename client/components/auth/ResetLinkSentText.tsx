import { Text } from '@mantine/core';
import { HostedTrans } from '../../i18n/HostedTrans';

/** What a forgot-password form says once it has sent: the same words whether or not the address has an account. */
export function ResetLinkSentText({ email }: { email: string }) {
  return (
    <Text>
      <HostedTrans i18nKey="forgot.sent" values={{ email }} components={{ b: <Text span fw={700} /> }} />
    </Text>
  );
}
