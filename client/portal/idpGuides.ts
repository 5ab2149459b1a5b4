/**
 * The setup portal's step-by-step guides: where each identity provider's admin pastes our values and
 * where they find theirs. `{value}` names a value the portal shows with a copy button next to the step.
 */
export type GuideValue = 'sp_entity_id' | 'acs_url' | 'sp_metadata_url' | 'oidc_callback_url';
export interface GuideStep {
  text: string;
  values?: GuideValue[];
}
export interface IdpGuide {
  key: 'okta' | 'entra' | 'google' | 'generic';
  label: string;
  protocol: 'saml' | 'oidc' | 'either';
  steps: GuideStep[];
  /** How the IdP provisions users with the SCIM token, when it can. */
  scim: string;
}

export const VALUE_LABELS: Record<GuideValue, string> = {
  sp_entity_id: 'SP entity ID (Audience URI)',
  acs_url: 'ACS URL (Single sign-on URL)',
  sp_metadata_url: 'SP metadata URL',
  oidc_callback_url: 'Redirect URI (OpenID Connect)',
};

export const IDP_GUIDES: IdpGuide[] = [
  {
    key: 'okta',
    label: 'Okta',
    protocol: 'saml',
    steps: [
      { text: 'In the Okta Admin Console, open Applications → Applications and click “Create App Integration”. Choose “SAML 2.0” and click Next.' },
      { text: 'On “General Settings”, name the app (your users see this name on their Okta dashboard) and click Next.' },
      { text: 'On “Configure SAML”, paste into “Single sign-on URL” (keep “Use this for Recipient URL and Destination URL” checked) and “Audience URI (SP Entity ID)”:', values: ['acs_url', 'sp_entity_id'] },
      { text: 'Set “Name ID format” to EmailAddress and “Application username” to Email.' },
      { text: 'Under “Attribute Statements”, add email → user.email, firstName → user.firstName, lastName → user.lastName. Optionally, under “Group Attribute Statements”, add groups (filter “Matches regex” .*).' },
      { text: 'Click Next, then Finish. On the app’s “Sign On” tab, open “Metadata URL” (or “View SAML setup instructions”), copy the whole XML and paste it into the form below.' },
      { text: 'On the “Assignments” tab, assign the people or groups who may sign in.' },
    ],
    scim: 'On the app’s “General” tab, edit “App Settings”, choose SCIM provisioning and save. On the “Provisioning” tab, set “SCIM connector base URL” to the SCIM base URL below, “Unique identifier field for users” to userName, “Authentication Mode” to HTTP Header, and paste the token as the Bearer token. Then enable “Create Users”, “Update User Attributes” and “Deactivate Users”.',
  },
  {
    key: 'entra',
    label: 'Microsoft Entra ID',
    protocol: 'saml',
    steps: [
      { text: 'In the Microsoft Entra admin center, open Identity → Applications → Enterprise applications and click “New application”, then “Create your own application” (a non-gallery application).' },
      { text: 'Open the new application’s “Single sign-on” page and choose SAML.' },
      { text: 'In “Basic SAML Configuration”, click Edit and paste “Identifier (Entity ID)” and “Reply URL (Assertion Consumer Service URL)”, then Save:', values: ['sp_entity_id', 'acs_url'] },
      { text: '“Attributes & Claims” already send the e-mail address, given name and surname; add a group claim if roles should follow groups.' },
      { text: 'Under “SAML Certificates”, download “Federation Metadata XML” and paste its contents into the form below.' },
      { text: 'Under “Users and groups”, add the people or groups who may sign in.' },
    ],
    scim: 'Open “Provisioning”, set “Provisioning Mode” to Automatic, paste the SCIM base URL below as “Tenant URL” and the token as “Secret Token”, click “Test Connection”, then Save and start provisioning.',
  },
  {
    key: 'google',
    label: 'Google Workspace',
    protocol: 'saml',
    steps: [
      { text: 'In the Google Admin console, open Apps → Web and mobile apps, then Add app → “Add custom SAML app”. Name it and click Continue.' },
      { text: 'On “Google Identity Provider details”, click “Download Metadata” and paste the file’s XML into the form below. Click Continue.' },
      { text: 'On “Service provider details”, paste “ACS URL” and “Entity ID”; set “Name ID format” to EMAIL and “Name ID” to Basic Information → Primary email:', values: ['acs_url', 'sp_entity_id'] },
      { text: 'On “Attribute mapping”, map Primary email → email, First name → firstName, Last name → lastName (and Group membership → groups if roles should follow groups). Click Finish.' },
      { text: 'Under “User access”, turn the app ON for everyone or for the organizational units that may sign in.' },
    ],
    scim: 'Google Workspace does not provision custom SAML apps through SCIM: people are added when they first sign in.',
  },
  {
    key: 'generic',
    label: 'Generic SAML / OIDC',
    protocol: 'either',
    steps: [
      { text: 'SAML 2.0: create an application (service provider) in your IdP and give it these values (or import our SP metadata from its URL once the connection is added):', values: ['sp_entity_id', 'acs_url', 'sp_metadata_url'] },
      { text: 'SAML 2.0: send the e-mail address as the NameID (or an “email” attribute), and optionally firstName, lastName and groups. Sign the assertion or the response. Then paste the IdP’s metadata XML (or its https metadata URL) into the form below.' },
      { text: 'OpenID Connect: register a confidential web client with the code flow and this redirect URI, then enter the issuer URL, client ID and client secret into the form below:', values: ['oidc_callback_url'] },
    ],
    scim: 'If your IdP supports SCIM 2.0, give it the SCIM base URL below and the token as a Bearer token.',
  },
];
