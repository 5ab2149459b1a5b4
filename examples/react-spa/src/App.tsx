import { useState } from 'react';
import { SignedIn, SignedOut, SignInButton, useAuth } from '@authplatform/react';

interface ApiAnswer {
  status: number;
  body: unknown;
}

/**
 * Calls the example API with the current access token (refreshed by the client when it is about to expire). A 401
 * means the session may have ended (revoked from the dashboard, signed out elsewhere): one forced refresh tells. If
 * the session was revoked, the client signs every tab out with the reason; if not, the call is made again once.
 */
function CallTheApi() {
  const { getAccessToken } = useAuth();
  const [answer, setAnswer] = useState<ApiAnswer | null>(null);
  const callWith = (token: string | null) => fetch('/api/me', { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  async function call() {
    let response = await callWith(await getAccessToken());
    if (response.status === 401) {
      const renewed = await getAccessToken({ forceRefresh: true });
      if (!renewed) return;
      response = await callWith(renewed);
    }
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

