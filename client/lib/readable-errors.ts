/**
 * The server's refusals name fields and settings as the API spells them (`redirect_uris`,
 * `WEBHOOKS_ALLOW_PRIVATE`), which is right for a developer reading a REST answer and wrong on a
 * screen. readableDetail puts them in words; everything else passes through unchanged.
 */
const FIELD_LABELS: Record<string, string> = {
  redirect_uris: 'Redirect URIs',
  post_logout_redirect_uris: 'Post-logout redirect URIs',
  allowed_origins: 'Allowed origins',
  logo_url: 'Logo URL',
  accent_color: 'Accent colour',
  mail_accent_color: 'Mail accent colour',
  mail_sender_name: 'Sender name',
  mail_product_name: 'Product name',
  website_url: 'Website URL',
  password_min_length: 'Minimum password length',
  access_token_ttl_s: 'Access token lifetime',
  refresh_token_ttl_s: 'Refresh token lifetime',
  captcha_site_key: 'Captcha site key',
  captcha_secret: 'Captcha secret',
  captcha_provider: 'Captcha',
  vpn_policy: 'VPN policy',
  event_types: 'Event types',
  client_id: 'Client ID',
  client_secret: 'Client secret',
  authorize_url: 'Authorization URL',
  token_url: 'Token URL',
  api_url: 'API URL',
  issuer: 'Issuer',
  display_name: 'Display name',
  idp_metadata_xml: 'IdP metadata XML',
  idp_metadata_url: 'IdP metadata URL',
  default_role: 'Default role',
  organization_id: 'Organization',
  url: 'URL',
};

/** An operator's setting named in a refusal: the developer cannot change it, only ask. */
const SETTING_HINT = /\s*\(?\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?:=\w+)?\b[^)]*\)?/g;

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function readableDetail(detail: string): string {
  let text = detail;
  const namedSetting = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/.test(text);
  if (namedSetting) {
    text = text.replace(SETTING_HINT, '').trim();
    text = `${text.replace(/[.\s]+$/, '')}. This server's operator decides whether that is allowed.`;
  }
  // "Each of redirect_uris must be…" → "Each of the redirect URIs must be…"
  text = text.replace(/\bEach of ([a-z]+(?:_[a-z]+)+)\b/g, (match, word: string) => {
    const label = FIELD_LABELS[word];
    return label ? `Each of the ${label.charAt(0).toLowerCase()}${label.slice(1)}` : match;
  });
  text = text.replace(/\b[a-z]+(?:_[a-z]+)*\b/g, (word, offset: number) => {
    const label = FIELD_LABELS[word];
    // Plain words ("url", "issuer") only where they open the refusal, as the field it is about.
    if (!label || (!word.includes('_') && offset !== 0)) return word;
    // "url must be" → "The URL must be"; inside a sentence the label as it is.
    if (offset === 0 && word === 'url') return 'The URL';
    return label;
  });
  return capitalise(text);
}
