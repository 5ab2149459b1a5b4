import type { Ref } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CaptchaWidget, type CaptchaHandle, type CaptchaStatus } from '../components/CaptchaField';
import { captchaProviderOf } from '../lib/captcha';
import { useHosted } from './HostedContext';

export type { CaptchaHandle, CaptchaStatus };

/** The project's captcha (its own from its settings, else the platform's), from GET /hosted/{project_key}/api/v1/captcha/config. */
export function HostedCaptcha({ ref, onStatusChange }: { ref?: Ref<CaptchaHandle>; onStatusChange?: (status: CaptchaStatus) => void }) {
  const { api } = useHosted();
  const config = useQuery({ queryKey: ['captcha-config'], queryFn: api.captchaConfig, staleTime: Number.POSITIVE_INFINITY });
  return <CaptchaWidget ref={ref} provider={captchaProviderOf(config)} siteKey={config.data?.site_key ?? ''} onStatusChange={onStatusChange} />;
}
