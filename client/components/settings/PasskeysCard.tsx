import { useAuth } from '../../auth/AuthProvider';
import { passkeyErrorMessage } from '../../lib/passkeys';
import { trpc } from '../../lib/trpc';
import { PasskeysPanel, type PasskeySource } from '../account/PasskeysPanel';
import { SettingsSection } from './SettingsSection';

/** The developer's passkeys: add one (the browser's dialog), rename, remove. */
export function PasskeysCard() {
  const { user } = useAuth();
  const utils = trpc.useUtils();
  const list = trpc.passkeys.list.useQuery();
  const options = trpc.passkeys.registrationOptions.useMutation();
  const register = trpc.passkeys.register.useMutation();
  const rename = trpc.passkeys.rename.useMutation();
  const remove = trpc.passkeys.remove.useMutation();
  const source: PasskeySource = {
    registrationOptions: () => options.mutateAsync(),
    register: async (response) => (await register.mutateAsync({ response })).passkey,
    rename: (id, name) => rename.mutateAsync({ id, name }),
    remove: (id) => remove.mutateAsync({ id }),
    reload: () => utils.passkeys.list.invalidate(),
    errorMessage: passkeyErrorMessage,
  };
  return <PasskeysPanel section={SettingsSection} verified={user?.is_verified === true} passkeys={list.data?.passkeys} loading={list.isLoading} failed={list.isError} source={source} />;
}
