import { useState } from 'react';
import { hostedErrorMessage } from './api';

/**
 * A hosted form's submit: `submitting` while the action runs, and the refusal's text for the form's FormAlert
 * (the server's detail, else `fallback`). `onFailure` runs after a refusal, e.g. to start a captcha over.
 */
export function useFormSubmit(fallback: string, onFailure?: () => void) {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (action: () => Promise<void>) => {
    setSubmitting(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(hostedErrorMessage(failure, fallback));
      onFailure?.();
    } finally {
      setSubmitting(false);
    }
  };
  return { submitting, error, submit };
}
