import { Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

export const PRODUCT_NAME = 'AuthPlatform';

export function Logo({ onClick }: { onClick?: () => void }) {
  return (
    <UnstyledButton component={Link} to="/" onClick={onClick} aria-label={`${PRODUCT_NAME} home`}>
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={32} radius="md" variant="gradient" gradient={{ from: 'indigo', to: 'cyan', deg: 135 }}>
          <IconShieldLock size={20} stroke={1.8} />
        </ThemeIcon>
        <Text fw={800} fz="lg" lh={1}>
          {PRODUCT_NAME}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
