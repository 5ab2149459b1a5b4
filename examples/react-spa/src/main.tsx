import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AuthProvider } from '@authplatform/react';
import { App } from './App';

interface Config {
  issuer: string;
  clientId: string;
}

// The project's issuer and key come from the API (examples/express-api), so one build serves any project.
async function start() {
  const config = (await (await fetch('/api/config')).json()) as Config;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AuthProvider
        issuer={config.issuer}
        clientId={config.clientId}
        redirectUri={`${location.origin}/callback`}
        postLogoutRedirectUri={`${location.origin}/`}
        onRedirectCallback={(returnTo) => history.replaceState(null, '', returnTo ?? '/')}
      >
        <App />
      </AuthProvider>
    </StrictMode>,
  );
}

void start();
