import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PasskeysPanel, type PasskeySource } from '../../components/account/PasskeysPanel';
import { AccountSection } from './AccountSection';
import { PASSKEYS_KEY, useHosted } from '../HostedContext';
import { passkeyFailureMessage } from '../passkey-errors';

/** The end user's passkeys: add one (the browser's dialog), rename, remove. */
export function PasskeysCard({ verified }: { verified: boolean }) {
  const { api } = useHosted();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: PASSKEYS_KEY, queryFn: api.passkeys });
  const source: PasskeySource = {
    registrationOptions: api.passkeyRegistrationOptions,
    register: async (response) => (await api.registerPasskey(response)).passkey,
    rename: api.renamePasskey,
    remove: api.removePasskey,
    reload: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
    errorMessage: passkeyFailureMessage,
  };
  return <PasskeysPanel section={AccountSection} verified={verified} passkeys={list.data?.passkeys} loading={list.isPending} failed={list.isError} source={source} />;
}
