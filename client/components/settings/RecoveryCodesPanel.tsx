import { useEffect } from 'react';
import { Alert, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { PRODUCT_NAME } from '../../../shared/constants';
import { useCopy } from '../../lib/clipboard';

/**
 * Recovery codes, shown once: copy, download, and a warning before the page is left while they are
 * on screen (they cannot be shown again, only replaced).
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { copied, copy } = useCopy();
  const text = codes.join('\n');

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
    <Stack gap="md" aria-label="Recovery codes" role="region">
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator app. They will not be shown again.
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
          {copied ? 'Copied!' : 'Copy codes'}
        </Button>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download}>
          Download
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </Group>
      <Text size="xs" c="dimmed">
        Leaving this page asks first while the codes are shown.
      </Text>
    </Stack>
  );
}
