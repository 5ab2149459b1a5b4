import { useRef, useState } from 'react';
import { Anchor, Button, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router-dom';
import { SocialButtons } from '../../components/auth/SocialButtons';
import { useSocialSignIn } from '../../components/auth/useSocialSignIn';
import { EmailField } from '../../components/EmailField';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { EndUserSignupFormSchema, resolver } from '../../forms';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { CheckYourMail } from '../components/CheckYourMail';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { ResendMail } from '../components/ResendMail';
import { HostedCaptcha, type CaptchaHandle, type CaptchaStatus } from '../HostedCaptcha';
import { useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';
import { useContinuation } from '../useInteraction';
import { useHostedSignInProviders } from '../useSignInProviders';
import { useHostedT } from '../../i18n/useHostedT';
import { translated } from '../i18n/validate';
import { HostedTrans } from '../../i18n/HostedTrans';
import { isSsoRequired, useSsoDiscovery } from '../useSsoDiscovery';

/** Create an account in the project; the answer is the same whether or not the address exists, so it always says "check your mail". */
export function SignUpPage() {
  const { api, paths, project } = useHosted();
  const { t, known } = useHostedT();
  const continuation = useContinuation();
  const { interaction } = continuation;
  const captcha = useRef<CaptchaHandle>(null);
  const { submitting, error, submit } = useFormSubmit(t('msg.signupFailed'), () => captcha.current?.reset());
  // The server's answer is the same whether or not the address had an account: say what happens next, in the end user's words.
  const [sent, setSent] = useState<string | null>(null);
  const signInLink = paths.page('sign-in', { ...continuation });
  const providers = useHostedSignInProviders();
  const [captchaStatus, setCaptchaStatus] = useState<CaptchaStatus>('ready');
  const social = useSocialSignIn(captcha, (provider, proof) => paths.socialStart(provider, { return_to: continuation.return_to ?? paths.afterSignIn(interaction), ...proof }));
  const sso = useSsoDiscovery(continuation.return_to ?? paths.afterSignIn(interaction));

  const form = useForm({
    mode: 'controlled',
    initialValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' },
    validate: translated(resolver(EndUserSignupFormSchema), known),
  });

  const onSubmit = form.onSubmit((values) =>
    submit(async () => {
      const email = values.email.trim();
      try {
        await api.signUp({
          email,
          password: values.password,
          first_name: values.firstName.trim() || null,
          last_name: values.lastName.trim() || null,
          captcha_token: (await captcha.current?.token()) ?? '',
          device_fingerprint: await getDeviceFingerprint(),
        }, continuation);
      } catch (failure) {
        // An enforced connection's domain makes its accounts through its IdP: offer it.
        if (isSsoRequired(failure)) void sso.discover(email);
        throw failure;
      }
      setSent(email);
    }),
  );

  const footer = (
    <>
      {t('signUp.haveAccount')}{' '}
      <Anchor component={Link} to={signInLink} fw={600}>
        {t('common.signIn')}
      </Anchor>
    </>
  );

  if (sent) {
    return (
      <HostedPage documentTitle={t('common.checkEmail')} title={t('common.checkEmail')} footer={footer}>
        <CheckYourMail
          actions={
            <Stack gap="xs" align="center" w="100%">
              <ResendMail email={sent} send={(captchaToken) => api.resendVerification(sent, captchaToken, continuation)} fallback={t('msg.resendFailed')} />
              <Button variant="subtle" size="compact-sm" onClick={() => setSent(null)}>
                {t('signUp.differentAddress')}
              </Button>
            </Stack>
          }
        >
          <Text>
            <HostedTrans i18nKey="signUp.sentTo" values={{ email: sent }} components={{ b: <Text span fw={700} style={{ overflowWrap: 'anywhere' }} /> }} />{' '}
            {interaction || continuation.return_to ? t('signUp.openToContinue', { app: project.name }) : t('signUp.openThenSignIn')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('signUp.spam')}
          </Text>
        </CheckYourMail>
      </HostedPage>
    );
  }

  return (
    <HostedPage documentTitle={t('signUp.title')} title={t('signUp.title')} subtitle={t('common.continueTo', { app: project.name })} footer={footer} size={480}>
      <Stack gap="md">
        {error && <FormAlert>{error}</FormAlert>}
        {sso.routed(form.values.email) && (
          <Button fullWidth loading={sso.leaving} onClick={() => void sso.start(form.values.email)}>
            {t('signIn.ssoContinue')}
          </Button>
        )}
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <TextInput label={t('common.firstName')} autoComplete="given-name" {...form.getInputProps('firstName')} />
              <TextInput label={t('common.lastName')} autoComplete="family-name" {...form.getInputProps('lastName')} />
            </SimpleGrid>
            <EmailField placeholder={t('common.emailPlaceholder')} {...form.getInputProps('email')} />
            <NewPasswordFields
              label={t('common.password')}
              confirmLabel={t('common.confirmPassword')}
              password={form.getInputProps('password')}
              confirmation={form.getInputProps('confirmPassword')}
            />
            <HostedCaptcha ref={captcha} onStatusChange={setCaptchaStatus} />
            <Button type="submit" fullWidth loading={submitting}>
              {t('signUp.submit')}
            </Button>
          </Stack>
        </form>
        <SocialButtons providers={providers} label={t('signUp.orWith')} pending={social.pending} onSelect={social.start} captcha={captchaStatus} />
      </Stack>
    </HostedPage>
  );
}
