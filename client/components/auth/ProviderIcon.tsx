import { IconBrandGithub, IconBrandGoogle, IconBrandWindows, IconKey } from '@tabler/icons-react';
import type { SocialProvider } from '../../../shared/schemas/social';

const ICONS = { github: IconBrandGithub, google: IconBrandGoogle, microsoft: IconBrandWindows, oidc: IconKey } as const;

/** The provider's mark: GitHub, Google, Microsoft (Windows), or a key for any OpenID Connect provider. */
export function ProviderIcon({ provider, size = 18 }: { provider: SocialProvider; size?: number }) {
  const Icon = ICONS[provider] ?? IconKey;
  return <Icon size={size} stroke={1.6} style={{ flexShrink: 0 }} aria-hidden />;
}
