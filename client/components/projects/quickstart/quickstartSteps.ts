import type { AppKind, QuickstartValues } from './quickstartValues';

/** One step of a quickstart: what to do, and the code that does it. */
export interface QuickstartStep {
  title: string;
  description: string;
  code: string;
}

const PACKAGES_INSTALL =
  'The browser packages are not on npm yet: build them with npm run packages:build in the AuthPlatform repository, then npm install ../authplatform/packages/js ../authplatform/packages/react (packages/README.md).';

const SDK_INSTALL = '@authplatform/api is not on npm yet: build it with npm run sdk:build in the AuthPlatform repository, then npm install ../authplatform/packages/api (packages/api/README.md).';

const verifyInYourApi = (env: string) => `import { AccessTokenError, verifyAccessToken } from '@authplatform/api';

// In your API: the caller's access token, checked offline against the project's keys (JWKS).
try {
  const { userId, sessionId } = await verifyAccessToken(accessToken, {
    appUrl: ${env}.AUTHPLATFORM_URL,
    projectKey: ${env}.AUTHPLATFORM_CLIENT_ID,
  });
} catch (error) {
  if (error instanceof AccessTokenError && error.code === 'expired') {
    // the app refreshes its tokens and calls again
  }
  throw error;
}`;

function singlePageApp(): QuickstartStep[] {
  return [
    {
      title: 'Wrap your app in the provider',
      description: `Register your callback as a redirect URI (in development, http://localhost:*/callback works on any port) and your app's origin as an allowed origin, in Settings → Sign-in methods. ${PACKAGES_INSTALL}`,
      code: `// npm install @authplatform/react
import { createRoot } from 'react-dom/client';
import { AuthProvider } from '@authplatform/react';

createRoot(document.getElementById('root')!).render(
  <AuthProvider
    issuer={import.meta.env.VITE_AUTHPLATFORM_ISSUER}
    clientId={import.meta.env.VITE_AUTHPLATFORM_CLIENT_ID}
    redirectUri={\`\${location.origin}/callback\`}
  >
    <App />
  </AuthProvider>,
);`,
    },
    {
      title: 'Send users to the hosted sign-in',
      description: 'Code + PKCE through the hosted pages; the provider finishes the callback by itself, and every tab shares one session and one refresh.',
      code: `import { SignedIn, SignedOut, SignInButton, UserButton } from '@authplatform/react';

export function Header() {
  return (
    <header>
      <SignedOut><SignInButton /></SignedOut>
      <SignedIn><UserButton /></SignedIn>
    </header>
  );
}`,
    },
    {
      title: 'Call your API with the access token',
      description: "getAccessToken() answers a valid token (refreshed when needed); your backend checks it with @authplatform/api's verifyAccessToken.",
      code: `import { Protect, useAuth } from '@authplatform/react';

export function Invoices() {
  const { getAccessToken } = useAuth();
  const load = async () => {
    const response = await fetch('/api/invoices', { headers: { Authorization: \`Bearer \${await getAccessToken()}\` } });
    return response.json();
  };
  return (
    <Protect permission="invoices:read" fallback={<p>Ask an admin for access.</p>}>
      <button onClick={load}>Load invoices</button>
    </Protect>
  );
}`,
    },
  ];
}

function serverApp(): QuickstartStep[] {
  return [
    {
      title: 'Configure the client',
      description: `Register http://localhost:*/callback (development) or your app's exact callback as a redirect URI in Settings → Sign-in methods. ${SDK_INSTALL}`,
      code: `// npm install openid-client
import * as oidc from 'openid-client';

const issuer = new URL(process.env.AUTHPLATFORM_ISSUER);
const config = await oidc.discovery(issuer, process.env.AUTHPLATFORM_CLIENT_ID, undefined, oidc.None(),
  issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined);`,
    },
    {
      title: 'Redirect to the hosted sign-in',
      description: 'Keep the PKCE verifier and state in your session. examples/node-app in the repository is this app, whole.',
      code: `app.get('/login', async (req, res) => {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  req.session.signIn = { verifier, state };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: 'http://localhost:4000/callback',
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  res.redirect(url.href);
});`,
    },
    {
      title: 'Take the user back, and verify tokens in your API',
      description: 'The callback exchanges the code; your API verifies access tokens offline with @authplatform/api.',
      code: `app.get('/callback', async (req, res) => {
  const { verifier, state } = req.session.signIn;
  const tokens = await oidc.authorizationCodeGrant(config, new URL(req.url, 'http://localhost:4000'), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  req.session.user = tokens.claims(); // sub, email, name…
  req.session.accessToken = tokens.access_token;
  res.redirect('/');
});

${verifyInYourApi('process.env')}`,
    },
  ];
}

function mobileApp(values: QuickstartValues): QuickstartStep[] {
  return [
    {
      title: 'Register the app',
      description:
        "Register your app's private-use scheme as a redirect URI (com.example.app:/callback) in Settings → Sign-in methods. The sign-in opens in the system browser, as RFC 8252 asks; AppAuth (react-native-app-auth here) does discovery and PKCE for you.",
      code: `// npm install react-native-app-auth
import { authorize, refresh } from 'react-native-app-auth';

const config = {
  issuer: '${values.issuer}',
  clientId: '${values.clientId}',
  redirectUrl: 'com.example.app:/callback',
  scopes: ['openid', 'email', 'profile', 'offline_access'],
};`,
    },
    {
      title: 'Sign the user in',
      description: 'The hosted sign-in page opens in the system browser and comes back to your scheme with tokens.',
      code: `const result = await authorize(config);
// result.accessToken, result.idToken, result.refreshToken

// Later, before the access token expires:
const renewed = await refresh(config, { refreshToken: result.refreshToken });`,
    },
    {
      title: 'Verify the token on your backend',
      description: `Send the access token to your API as a Bearer token; the API checks it with @authplatform/api. ${SDK_INSTALL}`,
      code: verifyInYourApi('process.env'),
    },
  ];
}

function backendOnly(): QuickstartStep[] {
  return [
    {
      title: 'Create the client',
      description: `Your own screens, your server calls the end-user API with one of the project's API keys (API keys page; keep it on the server). ${SDK_INSTALL}`,
      code: `import { createPublicApiClient } from '@authplatform/api';

const auth = createPublicApiClient({
  appUrl: process.env.AUTHPLATFORM_URL,
  apiKey: process.env.AUTHPLATFORM_API_KEY,
});`,
    },
    {
      title: 'Sign your users in',
      description: "Sign-up, sign-in, refresh and the rest are typed calls; every refusal is { detail }. Pass the end user's address so limits and history see them, not your server.",
      code: `const { data, error, response } = await auth.POST('/public/api/v1/auth/login', {
  body: { email, password, device_fingerprint },
  params: { header: { 'X-End-User-IP': request.ip, 'X-End-User-Agent': request.headers['user-agent'] } },
});
if (error) throw new Error(\`\${response.status}: \${error.detail}\`);
if ('mfa_required' in data) {
  // two factors on: finish with POST /public/api/v1/auth/mfa/verify and data.mfa_token
} else {
  data.access_token; data.refresh_token; data.user.id;
}`,
    },
    {
      title: 'Verify access tokens',
      description: 'Offline, against the project\'s keys; or call GET /public/api/v1/profile with the token where a revoked session must fail at once.',
      code: verifyInYourApi('process.env'),
    },
  ];
}

export function quickstartSteps(kind: AppKind, values: QuickstartValues): QuickstartStep[] {
  switch (kind) {
    case 'spa':
      return singlePageApp();
    case 'server':
      return serverApp();
    case 'mobile':
      return mobileApp(values);
    case 'backend':
      return backendOnly();
  }
}
