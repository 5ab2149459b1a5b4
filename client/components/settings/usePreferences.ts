import { useState } from 'react';
import type { User } from '../../../shared/schemas/user';
import { useAuth } from '../../auth/AuthProvider';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

export type PreferenceName = keyof Pick<User, 'login_notifications' | 'email_notifications' | 'notify_security_alerts' | 'notify_product_updates' | 'notify_marketing'>;

/**
 * Mail preferences of the signed-in account, read from the user and saved through profile.update as
 * soon as a switch moves: the switch shows the new value at once, and goes back if the save fails.
 */
export function usePreferences(texts: { saved: string; failed: string }) {
  const { user, setUser } = useAuth();
  const update = trpc.profile.update.useMutation();
  const [saving, setSaving] = useState<Partial<Record<PreferenceName, boolean>>>({});

  const value = (name: PreferenceName): boolean => saving[name] ?? user?.[name] ?? false;

  const set = async (name: PreferenceName, checked: boolean) => {
    setSaving((current) => ({ ...current, [name]: checked }));
    try {
      setUser(await update.mutateAsync({ [name]: checked }));
      notify.success(texts.saved);
    } catch (error) {
      notify.error(errorMessage(error, texts.failed));
    } finally {
      setSaving(({ [name]: _done, ...rest }) => rest);
    }
  };

  return { value, set };
}
