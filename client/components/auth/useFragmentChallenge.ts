import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { MfaChallenge } from '../../../shared/schemas/mfa';
import { challengeFromFragment } from '../../lib/social';

/**
 * The second-factor challenge a sign-in with a provider came back with (`#mfa_token=…`). The fragment is
 * read once and then dropped from the address, so a reload or a shared link does not carry the token.
 */
export function useFragmentChallenge(): [MfaChallenge | null, () => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const [challenge, setChallenge] = useState(() => challengeFromFragment(location.hash));

  useEffect(() => {
    if (challengeFromFragment(location.hash)) navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: location.state });
  }, [location, navigate]);

  return [challenge, () => setChallenge(null)];
}
