import {
  Avatar,
  Box,
  Burger,
  Button,
  Collapse,
  Container,
  Divider,
  Group,
  Menu,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconLogout, IconSettings, IconUser } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { isEffectiveAdmin } from '../../shared/schemas/user';
import { useLocalOutbox } from './mail/useLocalOutbox';
import { useAuth } from '../auth/AuthProvider';
import { Logo } from './Logo';
import { SessionPendingPlaceholder } from './SessionPendingPlaceholder';
import { ThemeToggle } from './ThemeToggle';
import { fullNameOrEmail, initials, menuLabel } from '../lib/format';

interface NavItem {
  to: string;
  label: string;
}

function isActive(pathname: string, to: string) {
  return pathname === to || pathname.startsWith(`${to}/`);
}

export function Header() {
  const { user, status, signOut } = useAuth();
  const { pathname } = useLocation();
  const [mobileOpen, mobile] = useDisclosure(false);

  const admin = user !== null && user !== undefined && isEffectiveAdmin(user);
  const localMail = useLocalOutbox(admin).available;
  // The sections (five for an admin) fit beside the logo and the account menu from md (992 px); below it, the menu.
  const nav: NavItem[] = user
    ? [
        { to: '/dashboard', label: 'Dashboard' },
        { to: '/projects', label: 'Projects' },
        { to: '/monitoring', label: 'Monitoring' },
        { to: '/analytics', label: 'Analytics' },
        ...(admin ? [{ to: '/admin', label: 'Admin' }] : []),
        ...(localMail ? [{ to: '/mail', label: 'Mail' }] : []),
      ]
    : [];

  return (
    <Box
      component="header"
      pos="sticky"
      top={0}
      style={{
        zIndex: 100,
        backgroundColor: 'var(--mantine-color-body)',
        borderBottom: '1px solid var(--mantine-color-default-border)',
      }}
    >
      <Container size="lg" h={64}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="xl" wrap="nowrap">
            <Logo onClick={mobile.close} />
            {nav.length > 0 && (
              <Group component="nav" aria-label="Main" gap={4} visibleFrom="md">
                {nav.map((item) => (
                  <Button
                    key={item.to}
                    component={Link}
                    to={item.to}
                    variant={isActive(pathname, item.to) ? 'light' : 'subtle'}
                    color={isActive(pathname, item.to) ? undefined : 'gray'}
                    c={isActive(pathname, item.to) ? undefined : 'var(--mantine-color-text)'}
                    aria-current={isActive(pathname, item.to) ? 'page' : undefined}
                    size="sm"
                  >
                    {item.label}
                  </Button>
                ))}
              </Group>
            )}
          </Group>

          <Group gap="sm" wrap="nowrap">
            <ThemeToggle />
            {status === 'loading' && !user && <SessionPendingPlaceholder />}
            {status !== 'loading' && !user && (
              <Group gap="xs" visibleFrom="md">
                <Button component={Link} to="/login" variant="default">
                  Login
                </Button>
                <Button component={Link} to="/signup">
                  Sign Up
                </Button>
              </Group>
            )}
            {user && (
              <Box visibleFrom="md">
                <Menu position="bottom-end" width={220} withArrow shadow="md">
                  <Menu.Target>
                    <UnstyledButton aria-label={`Account menu for ${menuLabel(user)}`} px={6} py={4}>
                      <Group gap={8} wrap="nowrap">
                        <Avatar size={30} radius="xl" color="indigo">
                          {initials(user)}
                        </Avatar>
                        <Text size="sm" fw={600} maw={180} truncate>
                          {menuLabel(user)}
                        </Text>
                        <IconChevronDown size={14} stroke={1.8} />
                      </Group>
                    </UnstyledButton>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Label>{user.email}</Menu.Label>
                    <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} />}>
                      Profile
                    </Menu.Item>
                    <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />}>
                      Settings
                    </Menu.Item>
                    <Menu.Divider />
                    <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
                      Sign out
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Box>
            )}
            <Burger
              opened={mobileOpen}
              onClick={mobile.toggle}
              hiddenFrom="md"
              size="sm"
              aria-label={mobileOpen ? 'Close navigation' : 'Open navigation'}
              aria-expanded={mobileOpen}
              aria-controls="mobile-menu"
            />
          </Group>
        </Group>
      </Container>

      <Collapse in={mobileOpen} hiddenFrom="md">
        <Box id="mobile-menu" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Container size="lg" py="md">
            <Stack component="nav" aria-label="Mobile" gap={4}>
              {user && (
                <>
                  <Group gap="sm" wrap="nowrap" px="xs" pb="xs">
                    <Avatar radius="xl" color="indigo">
                      {initials(user)}
                    </Avatar>
                    <Box miw={0}>
                      <Text fw={600} truncate>
                        {fullNameOrEmail(user)}
                      </Text>
                      {fullNameOrEmail(user) !== user.email && (
                        <Text size="sm" c="dimmed" truncate>
                          {user.email}
                        </Text>
                      )}
                    </Box>
                  </Group>
                  <Divider mb={4} />
                  {[...nav, { to: '/profile', label: 'Profile' }, { to: '/settings', label: 'Settings' }].map(
                    (item) => (
                      <Button
                        key={item.to}
                        component={Link}
                        to={item.to}
                        onClick={mobile.close}
                        variant={isActive(pathname, item.to) ? 'light' : 'subtle'}
                        color={isActive(pathname, item.to) ? undefined : 'gray'}
                        c={isActive(pathname, item.to) ? undefined : 'var(--mantine-color-text)'}
                        aria-current={isActive(pathname, item.to) ? 'page' : undefined}
                        justify="flex-start"
                        fullWidth
                      >
                        {item.label}
                      </Button>
                    ),
                  )}
                  <Divider my={4} />
                  <Button
                    variant="subtle"
                    color="red"
                    justify="flex-start"
                    leftSection={<IconLogout size={16} />}
                    fullWidth
                    onClick={() => {
                      mobile.close();
                      void signOut();
                    }}
                  >
                    Sign out
                  </Button>
                </>
              )}
              {status !== 'loading' && !user && (
                <>
                  <Button component={Link} to="/login" variant="default" onClick={mobile.close} fullWidth>
                    Login
                  </Button>
                  <Button component={Link} to="/signup" onClick={mobile.close} fullWidth>
                    Sign Up
                  </Button>
                </>
              )}
            </Stack>
          </Container>
        </Box>
      </Collapse>
    </Box>
  );
}
