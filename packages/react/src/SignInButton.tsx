import type { ButtonHTMLAttributes, ReactNode } from 'react';
import type { SignInOptions } from '@authplatform/js';
import { Styles } from './Styles.js';
import { useAuth } from './useAuth.js';

export interface SignInButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'>, Pick<SignInOptions, 'returnTo' | 'organization' | 'loginHint' | 'uiLocales'> {
  /** `sign-up` opens the hosted sign-up page instead (prompt=create). */
  mode?: 'sign-in' | 'sign-up';
  children?: ReactNode;
}

/** A button that leaves for the project's hosted sign-in (or sign-up). */
export function SignInButton({ mode = 'sign-in', returnTo, organization, loginHint, uiLocales, children, className, ...rest }: SignInButtonProps) {
  const { signIn } = useAuth();
  return (
    <>
      <Styles />
      <button
        type="button"
        {...rest}
        className={`ap-root ap-button${className ? ` ${className}` : ''}`}
        onClick={() => void signIn({ returnTo, organization, loginHint, uiLocales, ...(mode === 'sign-up' ? { prompt: 'create' } : {}) })}
      >
        {children ?? (mode === 'sign-up' ? 'Sign up' : 'Sign in')}
      </button>
    </>
  );
}
