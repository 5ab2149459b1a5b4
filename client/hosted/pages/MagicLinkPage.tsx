import { useEffect, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import type { MagicLinkAnswer } from '../../../shared/schemas/passwordless';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { useHostedT } from '../../i18n/useHostedT';
import { BackToSignIn } from '../components/BackToSignIn';
import { FormAlert } from '../components/FormAlert';
import { HostedPage } from '../components/HostedPage';
import { LinkNextStep } from '../components/LinkNextStep';
import { StatusPanel } from '../components/StatusPanel';
import { useHosted } from '../HostedContext';
import { browser } from '../navigation';
import { useFormSubmit } from '../useFormSubmit';
import { useMailedToken } from '../useMailedToken';

/**
 * The page of a mailed sign-in link. In the browser that asked, the first call signs in; anywhere else
 * (a mail scanner, another device, a link someone sent) it answers `confirm` and nothing happens until
 * the person presses the button that names the address. A link a developer's app asked for goes back
 * to the app with its one-time code.
 */
export function MagicLinkPage() {
  const { api, project } = useHosted();
  const { t, known } = useHostedT();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const opened = useMailedToken(async (value) => api.openMagicLink(value, false, await getDeviceFingerprint()), t('magicLink.failed'));
  const [confirmed, setConfirmed] = useState<MagicLinkAnswer | null>(null);
  const confirming = useFormSubmit(t('magicLink.failed'));
  const answer = confirmed ?? (opened.kind === 'success' ? opened.answer : null);
  const next = answer?.next ?? null;

  useEffect(() => {
    if (next?.kind === 'redirect') browser.assign(next.url);
  }, [next]);

  const confirm = () =>
    confirming.submit(async () => {
      setConfirmed(await api.openMagicLink(token, true, await getDeviceFingerprint()));
    });

  return (
    <HostedPage documentTitle={t('magicLink.title')} title={t('magicLink.title')} footer={<BackToSignIn />}>
      {opened.kind === 'loading' && <StatusPanel kind="loading" title={t('magicLink.opening')} />}
      {next?.kind === 'confirm' && (
        <Stack gap="md" align="stretch">
          <Text fw={600} ta="center">
            {t('magicLink.confirmTitle')}
          </Text>
          <Text size="sm" ta="center">
            {t('magicLink.confirmText', { email: next.email })}
          </Text>
          {confirming.error && <FormAlert>{known(confirming.error)}</FormAlert>}
          {/* A long address wraps rather than being cut off. */}
          <Button fullWidth h="auto" py={8} styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere', textAlign: 'center' } }} onClick={confirm} loading={confirming.submitting}>
            {t('magicLink.confirm', { email: next.email })}
          </Button>
        </Stack>
      )}
      {next?.kind === 'redirect' && <StatusPanel kind="loading" title={t('magicLink.redirecting', { app: project.name })} />}
      {next && next.kind !== 'confirm' && next.kind !== 'redirect' && <LinkNextStep next={next} done={t('magicLink.done')} />}
      {(opened.kind === 'error' || opened.kind === 'invalid') && (
        <StatusPanel kind={opened.kind} title={t('magicLink.failed')}>
          {opened.kind === 'error' ? known(opened.detail) : t('msg.magicLinkInvalid')}
        </StatusPanel>
      )}
    </HostedPage>
  );
}
