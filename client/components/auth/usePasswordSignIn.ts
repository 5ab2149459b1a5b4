import { useRef, useState } from 'react';
import { useForm } from '@mantine/form';
import type { MfaChallenge } from '../../../shared/schemas/mfa';
import { LoginFormSchema, resolver } from '../../forms';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import type { CaptchaHandle } from '../CaptchaField';

export interface PasswordSignInInput {
  email: string;
  password: string;
  captcha_token: string;
  device_fingerprint: string;
}

interface PasswordSignInOptions<Session> {
  initialEmail?: string;
  logIn(input: PasswordSignInInput): Promise<Session | MfaChallenge>;
  onSignedIn(session: Session): void;
  /** The attempt was refused; the captcha has been reset. */
  onFailure(failure: unknown): void;
  onSubmitStart?(): void;
}

const isChallenge = (answer: object): answer is MfaChallenge => 'mfa_required' in answer;

/**
 * The password step of a sign-in (the platform's login page, a project's hosted sign-in page): the form, the
 * captcha, and the second-factor challenge the server answers with when the account has one.
 */
export function usePasswordSignIn<Session extends object>({ initialEmail = '', logIn, onSignedIn, onFailure, onSubmitStart }: PasswordSignInOptions<Session>) {
  const captcha = useRef<CaptchaHandle>(null);
  const [submitting, setSubmitting] = useState(false);
  /** Set when the password was right and the account asks for a second factor. */
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);

  const form = useForm({
    mode: 'controlled',
    initialValues: { email: initialEmail, password: '' },
    // Checked on submit, not on blur: a message shown on blur pushes the button away from a click in progress.
    validate: resolver(LoginFormSchema),
  });

  const onSubmit = form.onSubmit(async (values) => {
    setSubmitting(true);
    onSubmitStart?.();
    try {
      const answer = await logIn({
        email: values.email.trim(),
        password: values.password,
        captcha_token: (await captcha.current?.token()) ?? '',
        device_fingerprint: await getDeviceFingerprint(),
      });
      if (isChallenge(answer)) {
        setChallenge(answer);
        setSubmitting(false);
        return;
      }
      onSignedIn(answer);
    } catch (failure) {
      onFailure(failure);
      captcha.current?.reset();
      setSubmitting(false);
    }
  });

  /** Back from the second step to the password form, with the password and the captcha cleared. */
  const cancelChallenge = () => {
    setChallenge(null);
    form.setFieldValue('password', '');
    captcha.current?.reset();
  };

  return { form, captcha, submitting, challenge, onSubmit, cancelChallenge };
}
