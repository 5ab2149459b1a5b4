import { useState } from 'react';
import { SignedIn, SignedOut, SignInButton, useAuth } from '@authplatform/react';

interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Calls the example API with the current access token (refreshed by the client when it is about to expire). */
function CallTheApi() {
  const { getAccessToken } = useAuth();
  const [answer, setAnswer] = useState<ApiAnswer | null>(null);
  async function call() {
    const token = await getAccessToken();
    const response = await fetch('/api/me', { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    setAnswer({ status: response.status, body: await response.json() });
  }
  return (
    <section>
      <button type="button" onClick={() => void call()}>
        Call the API
      </button>
      {answer && <pre data-testid="api-answer">{`${answer.status} ${JSON.stringify(answer.body)}`}</pre>}
    </section>
  );
}

export function App() {
  const { isLoaded, user, signOut, signOutReason, snapshot } = useAuth();
  if (!isLoaded) return <p>Loading…</p>;
  return (
    <main>
      <h1>Example SPA</h1>
      <SignedIn>
        <p>Signed in as {user?.email}</p>
        {/* Shared by every tab: the tab that refreshes hands the new token to the others. */}
        <p data-testid="token-expiry">Access token valid until {snapshot.expiresAt ? new Date(snapshot.expiresAt).toISOString() : '…'}</p>
        <CallTheApi />
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </SignedIn>
      <SignedOut>
        <p>{signOutReason ? `You are signed out (${signOutReason}).` : 'You are signed out.'}</p>
        <SignInButton>Sign in</SignInButton>
      </SignedOut>
    </main>
  );
}

