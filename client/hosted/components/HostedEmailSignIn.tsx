import { useRef, useState, type RefObject } from 'react';
import { Anchor, Button, Group, PinInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { MfaChallenge } from '../../../shared/schemas/mfa';
import { EmailField } from '../../components/EmailField';
import { ForgotPasswordFormSchema, resolver } from '../../forms';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { useHostedT } from '../../i18n/useHostedT';
import type { Continuation } from '../api';
import { HostedCaptcha, type CaptchaHandle, type CaptchaStatus } from '../HostedCaptcha';
import { useHosted } from '../HostedContext';
import { translated } from '../i18n/validate';
import { useFormSubmit } from '../useFormSubmit';
import { CheckYourMail } from './CheckYourMail';
import { FormAlert } from './FormAlert';

type Step = { kind: 'email' } | { kind: 'code'; email: string } | { kind: 'link'; email: string };

/**
 * Sign-in by e-mail without a password: a 6-digit code typed here, or a link that signs in when opened
 * in this browser. Only the methods the project turned on are offered (`codes`, `links`).
 */
export function HostedEmailSignIn(props: {
  codes: boolean;
  links: boolean;
  initialEmail: string;
  continuation: Continuation;
  onSignedIn: () => void;
  onChallenge: (challenge: MfaChallenge) => void;
  /** The page's captcha handle, when its "Continue with …" buttons take their token from the captcha shown here. */
  captcha?: RefObject<CaptchaHandle | null>;
  onCaptchaStatusChange?: (status: CaptchaStatus) => void;
}) {
  const { api } = useHosted();
  const { t, known } = useHostedT();
  const own = useRef<CaptchaHandle>(null);
  const captcha = props.captcha ?? own;
  const [step, setStep] = useState<Step>({ kind: 'email' });
  const [code, setCode] = useState('');
  const sending = useFormSubmit(t('msg.sendFailed'), () => captcha.current?.reset());
  const checking = useFormSubmit(t('msg.codeFailed'));
  const form = useForm({ mode: 'controlled', initialValues: { email: props.initialEmail }, validate: translated(resolver(ForgotPasswordFormSchema), known) });

  const send = (kind: 'code' | 'link', email: string) =>
    sending.submit(async () => {
      const token = (await captcha.current?.token()) ?? '';
      if (kind === 'code') await api.sendEmailCode(email, token);
      else await api.sendMagicLink(email, token, props.continuation);
      setCode('');
      setStep({ kind, email });
    });

  if (step.kind === 'link') {
    return (
      <CheckYourMail actions={<Anchor component="button" type="button" size="sm" onClick={() => setStep({ kind: 'email' })}>{t('passwordless.otherAddress')}</Anchor>}>
        <Text fw={600}>{t('passwordless.linkTitle')}</Text>
        <Text size="sm">{t('passwordless.linkSent', { email: step.email })}</Text>
      </CheckYourMail>
    );
  }

  if (step.kind === 'code') {
    const verify = (value: string) =>
      checking.submit(async () => {
        if (!/^\d{6}$/.test(value)) throw new Error(t('passwordless.codeInvalid'));
        const answer = await api.verifyEmailCode({ email: step.email, code: value, device_fingerprint: await getDeviceFingerprint() });
        if ('mfa_required' in answer) props.onChallenge(answer);
        else props.onSignedIn();
      });
    return (
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void verify(code);
        }}
      >
        <Stack gap="md" align="stretch">
          <Text size="sm" ta="center">
            {t('passwordless.codeSent', { email: step.email })}
          </Text>
          {checking.error && <FormAlert>{known(checking.error)}</FormAlert>}
          <Group justify="center">
            <PinInput
              length={6}
              type="number"
              oneTimeCode
              autoFocus
              value={code}
              onChange={setCode}
              onComplete={(value) => void verify(value)}
              aria-label={t('passwordless.codeLabel')}
              size="md"
            />
          </Group>
          <HostedCaptcha ref={captcha} onStatusChange={props.onCaptchaStatusChange} />
          <Button type="submit" fullWidth loading={checking.submitting}>
            {t('passwordless.verify')}
          </Button>
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={() => send('code', step.email)}>
              {t('passwordless.resend')}
            </Anchor>
            <Anchor component="button" type="button" size="sm" onClick={() => setStep({ kind: 'email' })}>
              {t('passwordless.otherAddress')}
            </Anchor>
          </Group>
          {sending.error && <FormAlert>{known(sending.error)}</FormAlert>}
        </Stack>
      </form>
    );
  }

  const onSubmit = (kind: 'code' | 'link') => form.onSubmit(({ email }) => send(kind, email.trim()));
  return (
    <form onSubmit={onSubmit(props.codes ? 'code' : 'link')} noValidate>
      <Stack gap="md">
        {sending.error && <FormAlert>{known(sending.error)}</FormAlert>}
        <EmailField placeholder={t('common.emailPlaceholder')} {...form.getInputProps('email')} />
        <HostedCaptcha ref={captcha} onStatusChange={props.onCaptchaStatusChange} />
        {props.codes && (
          <Button type="submit" fullWidth loading={sending.submitting}>
            {t('passwordless.emailCode')}
          </Button>
        )}
        {props.links && (
          <Button
            type={props.codes ? 'button' : 'submit'}
            variant={props.codes ? 'light' : 'filled'}
            fullWidth
            loading={!props.codes && sending.submitting}
            onClick={props.codes ? () => onSubmit('link')() : undefined}
          >
            {t('passwordless.magicLink')}
          </Button>
        )}
      </Stack>
    </form>
  );
}
