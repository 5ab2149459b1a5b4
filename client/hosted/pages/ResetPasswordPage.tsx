import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { KeepSignInMethodsField } from '../../components/KeepSignInMethodsField';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { ResetPasswordFormSchema, resolver } from '../../forms';
import { MESSAGES, TOASTS, VALIDATION } from '../../messages';
import { hostedErrorMessage } from '../api';
import { BackToSignIn } from '../components/BackToSignIn';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { useHosted } from '../HostedContext';

/** The link of the reset mail: a new password, then back to sign in (every session was signed out). */
export function ResetPasswordPage() {
  const { api, paths } = useHosted();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
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

  const onSubmit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setError(null);
    try {
      await api.resetPassword(token, values.password, values.keepSignInMethods);
      navigate(paths.page('sign-in'), { replace: true, state: { message: MESSAGES.passwordResetSuccess } });
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
