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
import { TOASTS } from '../../messages';
import { CheckYourMail } from '../components/CheckYourMail';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { ResendMail } from '../components/ResendMail';
import { HostedCaptcha, type CaptchaHandle } from '../HostedCaptcha';
import { useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';
import { useContinuation } from '../useInteraction';
import { useHostedSignInProviders } from '../useSignInProviders';

/** Create an account in the project; the answer is the same whether or not the address exists, so it always says "check your mail". */
export function SignUpPage() {
  const { api, paths, project } = useHosted();
  const continuation = useContinuation();
  const { interaction } = continuation;
  const captcha = useRef<CaptchaHandle>(null);
  const { submitting, error, submit } = useFormSubmit(TOASTS.signupFailed, () => captcha.current?.reset());
  // The server's answer is the same whether or not the address had an account: say what happens next, in the end user's words.
  const [sent, setSent] = useState<string | null>(null);
  const signInLink = paths.page('sign-in', { ...continuation });
  const providers = useHostedSignInProviders();
  const [captchaReady, setCaptchaReady] = useState(true);
  const social = useSocialSignIn(captcha, (provider, proof) => paths.socialStart(provider, { return_to: continuation.return_to ?? paths.afterSignIn(interaction), ...proof }));

  const form = useForm({
    mode: 'controlled',
    initialValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' },
    validate: resolver(EndUserSignupFormSchema),
  });

  const onSubmit = form.onSubmit((values) =>
    submit(async () => {
      const email = values.email.trim();
      await api.signUp({
        email,
        password: values.password,
        first_name: values.firstName.trim() || null,
        last_name: values.lastName.trim() || null,
        captcha_token: (await captcha.current?.token()) ?? '',
        device_fingerprint: await getDeviceFingerprint(),
      }, continuation);
      setSent(email);
    }),
  );

  const footer = (
    <>
      Already have an account?{' '}
      <Anchor component={Link} to={signInLink} fw={600}>
        Sign in
      </Anchor>
    </>
  );

  if (sent) {
    return (
      <HostedPage documentTitle="Check your email" title="Check your email" footer={footer}>
        <CheckYourMail
          actions={
            <Stack gap="xs" align="center" w="100%">
              <ResendMail email={sent} send={(captchaToken) => api.resendVerification(sent, captchaToken, continuation)} fallback={TOASTS.resendFailed} />
              <Button variant="subtle" size="compact-sm" onClick={() => setSent(null)}>
                Use a different address
              </Button>
            </Stack>
          }
        >
          <Text>
            We sent a verification link to{' '}
            <Text span fw={700} style={{ overflowWrap: 'anywhere' }}>
              {sent}
            </Text>
            .{' '}
            {interaction || continuation.return_to
              ? `Open it, in this browser or another, to verify your address and continue to ${project.name}.`
              : 'Open it to verify your address, then sign in.'}
          </Text>
          <Text size="sm" c="dimmed">
            Didn&apos;t get it? Check your spam folder, or send it again. The link works once and expires after 24 hours.
          </Text>
        </CheckYourMail>
      </HostedPage>
    );
  }

  return (
    <HostedPage documentTitle="Create your account" title="Create your account" subtitle={`to continue to ${project.name}`} footer={footer} size={480}>
      <Stack gap="md">
        {error && <FormAlert>{error}</FormAlert>}
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <TextInput label="First name" autoComplete="given-name" {...form.getInputProps('firstName')} />
              <TextInput label="Last name" autoComplete="family-name" {...form.getInputProps('lastName')} />
            </SimpleGrid>
            <EmailField placeholder="you@example.com" {...form.getInputProps('email')} />
            <NewPasswordFields
              label="Password"
              confirmLabel="Confirm password"
              password={form.getInputProps('password')}
              confirmation={form.getInputProps('confirmPassword')}
            />
            <HostedCaptcha ref={captcha} onReadyChange={setCaptchaReady} />
            <Button type="submit" fullWidth loading={submitting}>
              Create account
            </Button>
          </Stack>
        </form>
        <SocialButtons providers={providers} label="or sign up with" pending={social.pending} onSelect={social.start} waitingForCaptcha={!captchaReady} />
      </Stack>
    </HostedPage>
  );
}
