import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SIGN_IN_METHODS, enterpriseMethodKey, type ProjectSettings, type SignInMethod } from '../../../shared/schemas/project-settings';
import { SOCIAL_PROVIDER_NAMES, type SocialProvider } from '../../../shared/schemas/social';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SETTINGS_TEXTS } from '../../messages';
import { ssoConnectionKeys, useSsoConnectionsApi } from '../sso/ssoConnectionsApi';
import { ReadOnlyNote } from './ReadOnlyNote';
import { notifyFailure } from './states';

const METHODS: Record<SignInMethod, { label: string; description: string }> = {
  password: { label: 'Password', description: 'E-mail and password, with sign-up and password reset.' },
  magic_link: { label: 'Magic link', description: 'A one-time link by e-mail (15 minutes) that opens your hosted pages.' },
  email_code: { label: 'E-mail code', description: 'A 6-digit code by e-mail (10 minutes, 5 tries).' },
  passkey: { label: 'Passkeys', description: 'Face ID, Touch ID, Windows Hello or a security key.' },
};

/**
 * Which first factors the project's users have, on the public API, the hosted pages and OpenID
 * Connect; each connection below can be turned off here too. Each switch saves at once; the last one
 * left on cannot be turned off (the server refuses it too).
 */
export function ProjectSignInMethods({ projectId, settings, readOnly }: { projectId: string; settings: ProjectSettings; readOnly: boolean }) {
  const utils = trpc.useUtils();
  const update = trpc.projectSettings.update.useMutation();
  const methods = settings.sign_in_methods;
  const onCount = SIGN_IN_METHODS.filter((method) => methods[method]).length + Object.values(methods.connections).filter(Boolean).length;

  const save = async (change: NonNullable<Parameters<typeof update.mutateAsync>[0]['sign_in_methods']>) => {
    try {
      const next = await update.mutateAsync({ id: projectId, sign_in_methods: change });
      utils.projectSettings.get.setData({ id: projectId }, next);
      notify.success(SETTINGS_TEXTS.saved);
    } catch (error) {
      notifyFailure(SETTINGS_TEXTS.saveFailed, error);
    }
  };
  const lastOne = (on: boolean) => on && onCount <= 1;

  // Enterprise connections are keyed "sso:<id>": their names come from the connections themselves.
  const sso = useSsoConnectionsApi(projectId);
  const hasEnterprise = Object.keys(methods.connections).some((id) => id.startsWith(enterpriseMethodKey('')));
  const enterprise = useQuery({ queryKey: ssoConnectionKeys.list(projectId), queryFn: sso.list, enabled: hasEnterprise, retry: false });
  const labelOf = (id: string) => {
    if (id.startsWith(enterpriseMethodKey(''))) {
      const connection = enterprise.data?.connections.find((candidate) => enterpriseMethodKey(candidate.id) === id);
      return `Enterprise SSO: ${connection?.name ?? id.slice(enterpriseMethodKey('').length)}`;
    }
    return `Connection: ${Object.hasOwn(SOCIAL_PROVIDER_NAMES, id) ? SOCIAL_PROVIDER_NAMES[id as SocialProvider] : id}`;
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="sign-in-methods-heading">
      <Title order={3} fz="md" id="sign-in-methods-heading">
        Sign-in methods
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        What your users may sign in with. The hosted pages and OpenID Connect offer exactly these; the public API refuses the others with 403. At least one must stay on.
      </Text>
      {readOnly && <ReadOnlyNote />}
      <Stack gap="sm">
        {SIGN_IN_METHODS.map((method) => (
          <Switch
            key={method}
            label={METHODS[method].label}
            description={METHODS[method].description}
            checked={methods[method]}
            disabled={readOnly || update.isPending || lastOne(methods[method])}
            onChange={(event) => void save({ [method]: event.currentTarget.checked })}
          />
        ))}
        {Object.entries(methods.connections).map(([id, on]) => (
          <Switch
            key={id}
            label={labelOf(id)}
            description={id.startsWith(enterpriseMethodKey('')) ? 'Set up under Enterprise SSO; turned off here, it is not offered and its sign-ins are refused.' : 'Configured below; turned off here, it is hidden from sign-in and refused.'}
            checked={on}
            disabled={readOnly || update.isPending || lastOne(on)}
            onChange={(event) => void save({ connections: { [id]: event.currentTarget.checked } })}
          />
        ))}
      </Stack>
    </Card>
  );
}
