import { useState } from 'react';
import type { MfaChallenge } from '../../../shared/schemas/mfa';
import { Anchor, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { navigationMessage, safeReturnTo } from '../../auth/redirect';
import { SocialButtons } from '../../components/auth/SocialButtons';
import { useFragmentChallenge } from '../../components/auth/useFragmentChallenge';
import { usePasswordSignIn } from '../../components/auth/usePasswordSignIn';
import { useSocialSignIn } from '../../components/auth/useSocialSignIn';
import { EmailField } from '../../components/EmailField';
import { PasswordField } from '../../components/PasswordField';
import { passkeysSupported } from '../../lib/passkeys';
import { socialErrorMessage } from '../../lib/social';
import { hostedErrorMessage } from '../api';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { HostedPasskeySignIn } from '../components/HostedPasskeySignIn';
import { HostedEmailSignIn } from '../components/HostedEmailSignIn';
import { HostedSecondFactor } from '../components/HostedSecondFactor';
import { HostedCaptcha, type CaptchaStatus } from '../HostedCaptcha';
import { useHosted } from '../HostedContext';
import { useInteraction } from '../useInteraction';
import { useSignedIn } from '../useSignedIn';
import { isSsoRequired, useSsoDiscovery } from '../useSsoDiscovery';
import { useHostedSignInProviders } from '../useSignInProviders';
import { useHostedT } from '../../i18n/useHostedT';
import { errorText } from '../i18n/validate';

/**
 * Sign in to the project, with the platform login's labels; `?login_hint=` fills in the e-mail. A sign-in
 * with a provider comes back here with `?social_error=` or, for a second factor, `#mfa_token=` and `?return_to=`.
 * An address whose domain signs in through its organization's IdP (home-realm discovery, asked once the
 * address is typed, or after the server refused its password) gets "Continue with SSO"; an enforced
 * connection's address gets no password field.
 */
export function SignInPage() {
  const { api, paths, project } = useHosted();
  const { t, known } = useHostedT();
  const location = useLocation();
  const [params] = useSearchParams();
  const interaction = useInteraction();
  const returnTo = safeReturnTo(params.get('return_to'), `${paths.base}/`);
  const signedIn = useSignedIn(interaction, returnTo);
  const [error, setError] = useState<string | null>(null);
  const banner = navigationMessage(location.state);
  const socialError = socialErrorMessage(params.get('social_error'));
  const providers = useHostedSignInProviders();
  const [returnedChallenge, dropReturnedChallenge] = useFragmentChallenge();
  // The first factors the project offers; with a password and a mailed code or link both on, the password form comes first.
  const methods = project.sign_in_methods;
  const byEmail = methods.email_code || methods.magic_link;
  const [emailMode, setEmailMode] = useState(!methods.password);
  const [emailChallenge, setEmailChallenge] = useState<MfaChallenge | null>(null);

  // After the IdP, go where a password sign-in would have gone: the app's pending sign-in or the account page.
  const sso = useSsoDiscovery(returnTo ?? paths.afterSignIn(interaction));
  const { form, captcha, submitting, challenge, onSubmit, cancelChallenge } = usePasswordSignIn({
    initialEmail: params.get('login_hint') ?? '',
    logIn: api.logIn,
    onSignedIn: () => signedIn(),
    onFailure: (failure) => {
      setError(hostedErrorMessage(failure, t('msg.loginFailed')));
      if (isSsoRequired(failure)) void sso.discover(form.values.email);
    },
    onSubmitStart: () => setError(null),
  });
  const routed = sso.routed(form.values.email);
  const emailInput = form.getInputProps('email');

  const [captchaStatus, setCaptchaStatus] = useState<CaptchaStatus>('ready');
  // After a provider's sign-in, go where a password sign-in would have gone: the app's pending sign-in or the account page.
  const social = useSocialSignIn(captcha, (provider, proof) => paths.socialStart(provider, { return_to: returnTo ?? paths.afterSignIn(interaction), ...proof }));

  const secondStep = challenge ?? returnedChallenge ?? emailChallenge;
  if (secondStep) {
    return (
      <HostedPage documentTitle={t('signIn.twoFactorTitle')} title={t('signIn.twoFactorTitle')} subtitle={t('signIn.twoFactorSubtitle')}>
        <HostedSecondFactor
          challenge={secondStep}
          onSignedIn={signedIn}
          onCancel={() => {
            dropReturnedChallenge();
            cancelChallenge();
            setEmailChallenge(null);
          }}
        />
      </HostedPage>
    );
  }

  // The app's sign-in goes along to sign-up and forgot password.
  const keep = { interaction, return_to: returnTo };
  return (
    <HostedPage
      documentTitle={t('signIn.title')}
      title={t('signIn.title')}
      subtitle={t('common.continueTo', { app: project.name })}
      footer={
        // Sign-up asks for a password; without one, a mailed code or link makes the account.
        methods.password && (
          <>
            {t('signIn.noAccount')}{' '}
            <Anchor component={Link} to={paths.page('sign-up', keep)} fw={600}>
              {t('common.signUp')}
            </Anchor>
          </>
        )
      }
    >
      <Stack gap="md">
        {banner && <FormAlert kind="success">{banner}</FormAlert>}
        {error ? <FormAlert>{error}</FormAlert> : socialError && <FormAlert>{socialError}</FormAlert>}
        {methods.password && !emailMode && (
          <>
            <form
              onSubmit={(event) => {
                // An enforced connection's address has no password to send: Enter goes to its IdP.
                if (!routed?.enforced) return onSubmit(event);
                event.preventDefault();
                void sso.start(form.values.email);
              }}
              noValidate
            >
              <Stack gap="md">
                <EmailField
                  placeholder={t('common.emailPlaceholder')}
                  {...emailInput}
                  onBlur={(event) => {
                    emailInput.onBlur?.(event);
                    void sso.discover(event.currentTarget.value);
                  }}
                  error={errorText(form.errors.email, known)}
                />
                {routed && (
                  <>
                    <Text size="sm">{t('signIn.ssoRouted', { name: routed.name })}</Text>
                    <Button fullWidth loading={sso.leaving} onClick={() => void sso.start(form.values.email)}>
                      {t('signIn.ssoContinue')}
                    </Button>
                  </>
                )}
                {!routed?.enforced && (
                  <>
                    <PasswordField
                      label={t('common.password')}
                      placeholder={t('common.passwordPlaceholder')}
                      autoComplete="current-password"
                      required
                      {...form.getInputProps('password')}
                      error={errorText(form.errors.password, known)}
                    />
                    <Group justify="flex-end" mt={-8}>
                      <Anchor component={Link} to={paths.page('forgot-password', keep)} size="sm">
                        {t('signIn.forgot')}
                      </Anchor>
                    </Group>
                  </>
                )}
                <HostedCaptcha ref={captcha} onStatusChange={setCaptchaStatus} />
                {!routed?.enforced && (
                  <Button type="submit" fullWidth loading={submitting} variant={routed ? 'default' : 'filled'}>
                    {t('signIn.submit')}
                  </Button>
                )}
              </Stack>
            </form>
            {byEmail && (
              <Button variant="subtle" fullWidth onClick={() => setEmailMode(true)}>
                {t('passwordless.useEmail')}
              </Button>
            )}
          </>
        )}
        {byEmail && (emailMode || !methods.password) && (
          <>
            <HostedEmailSignIn
              codes={methods.email_code}
              links={methods.magic_link}
              initialEmail={params.get('login_hint') ?? ''}
              continuation={keep}
              onSignedIn={signedIn}
              onChallenge={setEmailChallenge}
              captcha={captcha}
              onCaptchaStatusChange={setCaptchaStatus}
            />
            {methods.password && (
              <Button variant="subtle" fullWidth onClick={() => setEmailMode(false)}>
                {t('passwordless.usePassword')}
              </Button>
            )}
          </>
        )}
        {methods.passkey && (
          <HostedPasskeySignIn onSignedIn={signedIn} onError={setError}>
            <Divider label={t('common.or')} labelPosition="center" />
          </HostedPasskeySignIn>
        )}
        {/* Below the passkey button, the "or" above it serves both. */}
        <SocialButtons
          providers={providers}
          label={methods.passkey && passkeysSupported() ? null : t('common.or')}
          pending={social.pending}
          onSelect={social.start}
          captcha={captchaStatus}
        />
      </Stack>
    </HostedPage>
  );
}
