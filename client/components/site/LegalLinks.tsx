import { Anchor, Text, type AnchorProps } from '@mantine/core';
import { siteConfig } from '../../lib/site';

/** The operator's legal pages (PRIVACY_URL, TERMS_URL): only those that exist are linked. */
export function legalPages(): Array<{ label: string; href: string }> {
  const { termsUrl, privacyUrl } = siteConfig();
  return [
    ...(termsUrl ? [{ label: 'Terms of Service', href: termsUrl }] : []),
    ...(privacyUrl ? [{ label: 'Privacy Policy', href: privacyUrl }] : []),
  ];
}

export function LegalLink({ label, href, ...props }: AnchorProps & { label: string; href: string }) {
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" {...props}>
      {label}
    </Anchor>
  );
}

/** "By signing in you agree to our Terms of Service and Privacy Policy", naming only the pages the operator has. */
export function LegalNotice({ action }: { action: string }) {
  const pages = legalPages();
  if (pages.length === 0) return null;
  return (
    <Text size="xs" c="dimmed" ta="center">
      By {action} you agree to our{' '}
      {pages.map((page, index) => (
        <span key={page.href}>
          {index > 0 && ' and '}
          <LegalLink size="xs" label={page.label} href={page.href} />
        </span>
      ))}
      .
    </Text>
  );
}
