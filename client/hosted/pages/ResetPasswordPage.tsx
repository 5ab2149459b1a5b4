import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { KeepSignInMethodsField } from '../../components/KeepSignInMethodsField';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { ResetPasswordFormSchema, resolver } from '../../forms';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { MESSAGES } from '../../messages';
import type { LinkNext } from '../../../shared/schemas/hosted';
import { hostedErrorMessage } from '../api';
import { BackToSignIn } from '../components/BackToSignIn';
import { FormAlert } from '../components/FormAlert';
import { LinkNextStep } from '../components/LinkNextStep';
import { HostedPage } from '../components/HostedPage';
import { StatusPanel } from '../components/StatusPanel';
import { useHosted } from '../HostedContext';
import { useHostedT } from '../../i18n/useHostedT';
import { translated } from '../i18n/validate';

/**
 * The link of the reset mail: a new password, then back to sign in (every session was signed out), or,
 * when the link carries an app's sign-in, on to the app (LinkNextStep).
 */
export function ResetPasswordPage() {
  const { api, paths } = useHosted();
  const { t, known } = useHostedT();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [next, setNext] = useState<Exclude<LinkNext, null> | null>(null);
  const form = useForm({ mode: 'controlled', initialValues: { password: '', confirmPassword: '', keepSignInMethods: false }, validate: translated(resolver(ResetPasswordFormSchema), known) });

  if (!token) {
    return (
      <HostedPage documentTitle={t('reset.invalidTitle')} title={t('reset.invalidTitle')} footer={<BackToSignIn />}>
        <StatusPanel
          kind="invalid"
          title={t('msg.resetTokenInvalid')}
          actions={
            <Button component={Link} to={paths.page('forgot-password')} mt="xs">
              {t('reset.requestNew')}
            </Button>
          }
        >
          {t('reset.invalidText')}
        </StatusPanel>
      </HostedPage>
    );
  }

  if (next) {
    return (
      <HostedPage documentTitle={t('reset.doneTitle')} title={t('reset.doneTitle')}>
        <LinkNextStep next={next} done={t('reset.done')} />
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
      setError(hostedErrorMessage(failure, t('msg.resetFailed')));
      setSubmitting(false);
    }
  });

  return (
    <HostedPage documentTitle={t('reset.title')} title={t('reset.title')} subtitle={t('reset.subtitle')} footer={<BackToSignIn />}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {error && <FormAlert>{error}</FormAlert>}
          <NewPasswordFields password={form.getInputProps('password')} confirmation={form.getInputProps('confirmPassword')} />
          <KeepSignInMethodsField {...form.getInputProps('keepSignInMethods', { type: 'checkbox' })} />
          <Button type="submit" fullWidth loading={submitting}>
            {t('reset.submit')}
          </Button>
        </Stack>
      </form>
    </HostedPage>
  );
}
