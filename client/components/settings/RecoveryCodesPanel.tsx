import { useEffect } from 'react';
import { Alert, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { PRODUCT_NAME } from '../../../shared/constants';
import { useCopy } from '../../lib/clipboard';
import { useHostedT } from '../../i18n/useHostedT';

/**
 * Recovery codes, shown once: copy, download, and a warning before the page is left while they are
 * on screen (they cannot be shown again, only replaced).
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { copied, copy } = useCopy();
  const text = codes.join('\n');
  const { t } = useHostedT();

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  const download = () => {
    const url = URL.createObjectURL(new Blob([`${PRODUCT_NAME} recovery codes\n\n${text}\n`], { type: 'text/plain' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: `${PRODUCT_NAME.toLowerCase()}-recovery-codes.txt` });
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Stack gap="md" aria-label={t('codes.region')} role="region">
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
        {t('codes.warning')}
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        {codes.map((code) => (
          <Code key={code} fz="sm" ta="center" py={6}>
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <Button variant="default" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={() => void copy(text)}>
          {copied ? t('codes.copied') : t('codes.copy')}
        </Button>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download}>
          {t('codes.download')}
        </Button>
        <Button onClick={onDone}>{t('codes.saved')}</Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('codes.leaving')}
      </Text>
    </Stack>
  );
}
