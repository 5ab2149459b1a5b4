import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { KeepSignInMethodsField } from '../../components/KeepSignInMethodsField';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { ResetPasswordFormSchema, resolver } from '../../forms';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { MESSAGES, TOASTS, VALIDATION } from '../../messages';
import type { LinkNext } from '../../../shared/schemas/hosted';
import { hostedErrorMessage } from '../api';
import { BackToSignIn } from '../components/BackToSignIn';
import { FormAlert } from '../components/FormAlert';
import { LinkNextStep } from '../components/LinkNextStep';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { useHosted } from '../HostedContext';

/**
 * The link of the reset mail: a new password, then back to sign in (every session was signed out), or,
 * when the link carries an app's sign-in, on to the app (LinkNextStep).
 */
export function ResetPasswordPage() {
  const { api, paths } = useHosted();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [next, setNext] = useState<Exclude<LinkNext, null> | null>(null);
  const form = useForm({ mode: 'controlled', initialValues: { password: '', confirmPassword: '', keepSignInMethods: false }, validate: resolver(ResetPasswordFormSchema) });

  if (!token) {
    return (
      <HostedPage documentTitle="Invalid reset link" title="Invalid reset link" footer={<BackToSignIn />}>
        <StatusPanel
          kind="invalid"
          title={VALIDATION.resetTokenInvalid}
          actions={
            <Button component={Link} to={paths.page('forgot-password')} mt="xs">
              Request a new reset link
            </Button>
          }
        >
          This password reset link is invalid or has expired.
        </StatusPanel>
      </HostedPage>
    );
  }

  if (next) {
    return (
      <HostedPage documentTitle="Password reset" title="Password reset">
        <LinkNextStep next={next} done="Your password was reset" />
      </HostedPage>
    );
  }

  const onSubmit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setError(null);
    try {
      const answer = await api.resetPassword({ token, newPassword: values.password, keepSignInMethods: values.keepSignInMethods, deviceFingerprint: await getDeviceFingerprint() });
      if (answer.next) setNext(answer.next);
      else navigate(paths.page('sign-in'), { replace: true, state: { message: MESSAGES.passwordResetSuccess } });
    } catch (failure) {
      setError(hostedErrorMessage(failure, TOASTS.resetFailed));
      setSubmitting(false);
    }
  });

  return (
    <HostedPage documentTitle="Set a new password" title="Set a new password" subtitle="Choose a strong password you don't use anywhere else" footer={<BackToSignIn />}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {error && <FormAlert>{error}</FormAlert>}
          <NewPasswordFields password={form.getInputProps('password')} confirmation={form.getInputProps('confirmPassword')} />
          <KeepSignInMethodsField {...form.getInputProps('keepSignInMethods', { type: 'checkbox' })} />
          <Button type="submit" fullWidth loading={submitting}>
            Reset password
          </Button>
        </Stack>
      </form>
    </HostedPage>
  );
}
