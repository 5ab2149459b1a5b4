import type { ReactNode } from 'react';
import { Box, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { PRODUCT_NAME } from '../../../shared/constants';
import { ThemeToggle } from '../../components/ThemeToggle';
import { useHostedT } from '../../i18n/useHostedT';

/**
 * The frame of every hosted page: the project's brand and the theme toggle on top, the page's title (with
 * its `actions` beside it), its card (or, with `plain`, its own cards), and a small "Secured by" line. No
 * platform header or footer.
 */
export function HostedShell({
  brand,
  title,
  subtitle,
  children,
  footer,
  actions,
  size = 440,
  plain = false,
}: {
  brand?: ReactNode;
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  actions?: ReactNode;
  size?: number;
  plain?: boolean;
}) {
  const { t } = useHostedT();
  return (
    <Box mih="100dvh" className="hosted-page" style={{ display: 'flex', flexDirection: 'column' }}>
      <Container component="header" size={Math.max(size, 720)} px="md" py="sm" w="100%">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Box miw={0}>{brand}</Box>
          <ThemeToggle />
        </Group>
      </Container>
      <Box component="main" id="main" style={{ flex: 1 }}>
        <Container size={size} px="md" pt={{ base: 16, sm: 40 }} pb="xl">
          {/* The actions go under the title when both do not fit side by side (a phone). */}
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="md" mb="lg">
            <Stack gap={6} ta={plain ? 'left' : 'center'} style={{ flex: '1 1 16rem', minWidth: 0 }}>
              <Title order={1} fz={{ base: 24, sm: 28 }}>
                {title}
              </Title>
              {subtitle && (
                <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {subtitle}
                </Text>
              )}
            </Stack>
            {actions}
          </Group>
          {plain ? (
            children
          ) : (
            <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="md">
              {children}
            </Paper>
          )}
          {footer && (
            <Text component="div" ta="center" size="sm" c="dimmed" mt="md">
              {footer}
            </Text>
          )}
        </Container>
      </Box>
      <Text component="footer" ta="center" size="xs" c="dimmed" py="md">
        {t('common.securedBy', { product: PRODUCT_NAME })}
      </Text>
    </Box>
  );
}
