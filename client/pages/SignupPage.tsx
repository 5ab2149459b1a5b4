import { useRef, useState } from 'react';
import { Anchor, Button, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate } from 'react-router-dom';
import { AuthShell } from '../components/AuthShell';
import { SocialButtons } from '../components/auth/SocialButtons';
import { useSignInProviders } from '../components/auth/useSignInProviders';
import { useSocialSignIn } from '../components/auth/useSocialSignIn';
import { EmailField } from '../components/EmailField';
import { CaptchaField, type CaptchaHandle, type CaptchaStatus } from '../components/CaptchaField';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { LegalNotice } from '../components/site/LegalLinks';
import { SignupFormSchema, resolver } from '../forms';
import { errorMessage } from '../lib/errors';
import { getDeviceFingerprint } from '../lib/fingerprint';
import { notify } from '../lib/notify';
import { socialStartUrl } from '../lib/social';
import { trpc } from '../lib/trpc';
import { MESSAGES, TOASTS } from '../messages';

export function SignupPage() {
  const navigate = useNavigate();
  const signUp = trpc.auth.signUp.useMutation();
  const [submitting, setSubmitting] = useState(false);
  const captcha = useRef<CaptchaHandle>(null);
  const providers = useSignInProviders();
  // A new account made through a provider lands on the dashboard, like any sign-in.
  const [captchaStatus, setCaptchaStatus] = useState<CaptchaStatus>('ready');
  const social = useSocialSignIn(captcha, (provider, proof) => socialStartUrl('/api/v1', provider, proof));

  const form = useForm({
    mode: 'controlled',
    initialValues: {
      firstName: '',
      lastName: '',
      companyName: '',
      websiteUrl: '',
      email: '',
      password: '',
      confirmPassword: '',
    },
    // Checked on submit, not on blur: a message shown on blur pushes the button away from a click in progress.
    validate: resolver(SignupFormSchema),
  });

  const onSubmit = form.onSubmit(async (values) => {
    setSubmitting(true);
    try {
      await signUp.mutateAsync({
        email: values.email.trim(),
        password: values.password,
        first_name: values.firstName.trim() || null,
        last_name: values.lastName.trim() || null,
        company_name: values.companyName.trim() || null,
        website_url: values.websiteUrl.trim() || null,
        captcha_token: (await captcha.current?.token()) ?? '',
        device_fingerprint: await getDeviceFingerprint(),
      });
      notify.success(MESSAGES.signupSuccess);
      navigate('/login', { state: { message: MESSAGES.signupSuccess } });
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.signupFailed));
      captcha.current?.reset();
      setSubmitting(false);
    }
  });

  return (
    <AuthShell
      size={520}
      title="Create your developer account"
      subtitle="Start building secure authentication in minutes"
      footer={
        <>
          Already have an account?{' '}
          <Anchor component={Link} to="/login" fw={600}>
            Sign in
          </Anchor>
        </>
      }
    >
      <Stack gap="md">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <TextInput label="First name" autoComplete="given-name" {...form.getInputProps('firstName')} />
              <TextInput label="Last name" autoComplete="family-name" {...form.getInputProps('lastName')} />
            </SimpleGrid>
            <TextInput
              label="Company"
              description="Optional"
              autoComplete="organization"
              {...form.getInputProps('companyName')}
            />
            <TextInput
              label="Website"
              description="Optional"
              type="url"
              placeholder="https://example.com"
              autoComplete="url"
              {...form.getInputProps('websiteUrl')}
            />
            <EmailField {...form.getInputProps('email')} />
            <NewPasswordFields
              label="Password"
              confirmLabel="Confirm password"
              password={form.getInputProps('password')}
              confirmation={form.getInputProps('confirmPassword')}
            />
            <CaptchaField ref={captcha} onStatusChange={setCaptchaStatus} />
            <Button type="submit" fullWidth loading={submitting}>
              Create account
            </Button>
          </Stack>
        </form>
        <SocialButtons providers={providers} label="Or sign up with" pending={social.pending} onSelect={social.start} captcha={captchaStatus} />
        <LegalNotice action="creating an account" />
      </Stack>
    </AuthShell>
  );
}
