import { useState } from 'react';
import { Select } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { localeName, SUPPORTED_LOCALES } from '../../../shared/i18n/locales';
import { useHostedT } from '../../i18n/useHostedT';
import { notify } from '../../lib/notify';
import { hostedErrorMessage } from '../api';
import { FormAlert } from '../components/FormAlert';
import { PROFILE_KEY, useHosted } from '../HostedContext';
import { AccountSection } from './AccountSection';

/** The language of the hosted pages and of the user's mails, saved on the account; each named in its own language. */
export function LanguageCard() {
  const { api, project, locale, pickLocale } = useHosted();
  const { t } = useHostedT();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async (next: string | null) => {
    if (!next || next === locale) return;
    setError(null);
    setSaving(true);
    try {
      const updated = await api.updateProfile({ locale: next });
      queryClient.setQueryData(PROFILE_KEY, updated);
      pickLocale(next);
      notify.success(t('msg.languageSaved', { lng: next }));
    } catch (failure) {
      setError(hostedErrorMessage(failure, t('msg.profileUpdateFailed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <AccountSection title={t('common.language')} description={t('account.languageHelp', { app: project.name })}>
      {error && <FormAlert>{error}</FormAlert>}
      <Select
        label={t('common.language')}
        maw={320}
        data={SUPPORTED_LOCALES.map((value) => ({ value, label: localeName(value) }))}
        value={locale}
        onChange={(value) => void save(value)}
        allowDeselect={false}
        disabled={saving}
        comboboxProps={{ withinPortal: true }}
      />
    </AccountSection>
  );
}
