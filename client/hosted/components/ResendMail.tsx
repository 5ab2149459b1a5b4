import { useRef, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { HostedApiError } from '../api';
import { HostedCaptcha, type CaptchaHandle } from '../HostedCaptcha';
import { useFormSubmit } from '../useFormSubmit';
import { FormAlert } from './FormAlert';

/**
 * "Resend" under a "check your e-mail" state: the same request again (the server's limits apply: past
 * them it says how long to wait), with the captcha when one is on.
 */
export function ResendMail({ email, send, fallback }: { email: string; send: (captchaToken: string) => Promise<unknown>; fallback: string }) {
  const captcha = useRef<CaptchaHandle>(null);
  const [sent, setSent] = useState(0);
  const [waitS, setWaitS] = useState<number | null>(null);
  const { submitting, error, submit } = useFormSubmit(fallback, () => captcha.current?.reset());

  const resend = () =>
    submit(async () => {
      setWaitS(null);
      try {
        await send((await captcha.current?.token()) ?? '');
        setSent((count) => count + 1);
      } catch (failure) {
        if (failure instanceof HostedApiError && failure.retryAfterS) setWaitS(failure.retryAfterS);
        throw failure;
      }
    });

  return (
    <Stack gap="xs" align="center" w="100%">
      {sent > 0 && !error && (
        <FormAlert kind="success">
          We sent it again to{' '}
          <Text span fw={700} style={{ overflowWrap: 'anywhere' }}>
            {email}
          </Text>
          .
        </FormAlert>
      )}
      {error && <FormAlert>{waitS ? `${error} Try again in ${waitS < 60 ? `${waitS} s` : `${Math.ceil(waitS / 60)} min`}.` : error}</FormAlert>}
      <HostedCaptcha ref={captcha} />
      <Button variant="light" leftSection={<IconRefresh size={16} />} loading={submitting} onClick={() => void resend()}>
        Resend
      </Button>
    </Stack>
  );
}
