import type { ReactNode } from 'react';
import { ActionIcon, Box, Button, Code, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useCopy } from '../lib/clipboard';
import { useHostedT } from '../i18n/useHostedT';

/**
 * A value worth copying (project key, JWKS URL, a new secret) in monospace with a copy control and the
 * 'Copied!' hint for 2 s. `compact` shows an icon button (cards); otherwise a labelled button.
 */
export function CopyField({
  label,
  value,
  copyLabel,
  compact = false,
  wrap = false,
  description,
}: {
  label?: ReactNode;
  value: string;
  /** Accessible name of the copy control, e.g. 'Copy project key'. */
  copyLabel: string;
  compact?: boolean;
  /** Long values (secrets, URLs) wrap instead of being cut with an ellipsis. */
  wrap?: boolean;
  description?: ReactNode;
}) {
  const { copied, copy } = useCopy();
  const { t } = useHostedT();
  return (
    <Stack gap={4}>
      {label && (
        <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.4 }}>
          {label}
        </Text>
      )}
      <Group gap={6} wrap="nowrap" align={wrap ? 'flex-start' : 'center'}>
        <Code
          style={{
            flex: 1,
            minWidth: 0,
            fontSize: 13,
            padding: '6px 8px',
            ...(wrap
              ? { whiteSpace: 'pre-wrap', wordBreak: 'break-all' }
              : { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }),
          }}
          title={wrap ? undefined : value}
          data-testid="copy-value"
        >
          {value}
        </Code>
        {compact ? (
          <Tooltip label={copied ? t('codes.copied') : t('common.copy')} withArrow opened={copied || undefined}>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              onClick={() => void copy(value)}
              aria-label={copyLabel}
              size="lg"
            >
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        ) : (
          <Button
            size="xs"
            variant="light"
            color={copied ? 'teal' : undefined}
            leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            onClick={() => void copy(value)}
            aria-label={copyLabel}
            style={{ flexShrink: 0 }}
          >
            {t('common.copy')}
          </Button>
        )}
      </Group>
      {description && (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      )}
      {!compact && (
        <Box mih={18}>
          {copied && (
            <Text size="xs" c="teal" fw={600} role="status">
              Copied!
            </Text>
          )}
        </Box>
      )}
    </Stack>
  );
}
