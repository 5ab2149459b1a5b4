import type { Ref } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CaptchaWidget, type CaptchaHandle } from '../components/CaptchaField';
import { toProvider } from '../lib/captcha';
import { useHosted } from './HostedContext';

export type { CaptchaHandle };

/** The project's captcha (its own from its settings, else the platform's), from GET /hosted/{project_key}/api/v1/captcha/config. */
export function HostedCaptcha({ ref, onReadyChange }: { ref?: Ref<CaptchaHandle>; onReadyChange?: (ready: boolean) => void }) {
  const { api } = useHosted();
  const config = useQuery({ queryKey: ['captcha-config'], queryFn: api.captchaConfig, staleTime: Number.POSITIVE_INFINITY });
  const provider = config.data?.enabled ? toProvider(config.data.provider) : 'none';
  return <CaptchaWidget ref={ref} provider={provider} siteKey={config.data?.site_key ?? ''} onReadyChange={onReadyChange} />;
}
