import { useRef, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { ApiError } from '../../lib/api-client';
import { HostedCaptcha, type CaptchaHandle } from '../HostedCaptcha';
import { useFormSubmit } from '../useFormSubmit';
import { FormAlert } from './FormAlert';
import { useHostedT } from '../../i18n/useHostedT';
import { HostedTrans } from '../../i18n/HostedTrans';

/**
 * "Resend" under a "check your e-mail" state: the same request again (the server's limits apply: past
 * them it says how long to wait), with the captcha when one is on.
 */
export function ResendMail({ email, send, fallback }: { email: string; send: (captchaToken: string) => Promise<unknown>; fallback: string }) {
  const captcha = useRef<CaptchaHandle>(null);
  const { t, known } = useHostedT();
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
        if (failure instanceof ApiError && failure.retryAfterS) setWaitS(failure.retryAfterS);
        throw failure;
      }
    });

  return (
    <Stack gap="xs" align="center" w="100%">
      {sent > 0 && !error && (
        <FormAlert kind="success">
          <HostedTrans i18nKey="common.resentTo" values={{ email }} components={{ b: <Text span fw={700} style={{ overflowWrap: 'anywhere' }} /> }} />
        </FormAlert>
      )}
      {error && (
        <FormAlert>
          {waitS
            ? waitS < 60
              ? t('common.retryAfterSeconds', { error: known(error), seconds: waitS })
              : t('common.retryAfterMinutes', { error: known(error), minutes: Math.ceil(waitS / 60) })
            : error}
        </FormAlert>
      )}
      <HostedCaptcha ref={captcha} />
      <Button variant="light" leftSection={<IconRefresh size={16} />} loading={submitting} onClick={() => void resend()}>
        {t('common.resend')}
      </Button>
    </Stack>
  );
}
