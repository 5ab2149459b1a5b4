import { useEffect } from 'react';
import { Button, Card, Fieldset, Group, NumberInput, PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ProjectSettings } from '../../../shared/schemas/project-settings';
import { isOwnCaptcha, PROJECT_PASSWORD_MIN_LENGTH_MAX } from '../../../shared/schemas/project-settings';
import { PASSWORD_MIN_LENGTH } from '../../../shared/constants';
import { resolver } from '../../forms';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SETTINGS_TEXTS } from '../../messages';
import { UnsavedChangesGuard } from '../UnsavedChangesGuard';
import { ReadOnlyNote } from './ReadOnlyNote';
import { formatMinutes, rulesChanges, rulesOf, RulesFormSchema, type RulesValues } from './settingsForm';
import { notifyFailure } from './states';

const CAPTCHA_OPTIONS = [
  { value: 'platform', label: "The platform's" },
  { value: 'none', label: 'None' },
  { value: 'turnstile', label: 'Cloudflare Turnstile' },
  { value: 'hcaptcha', label: 'hCaptcha' },
  { value: 'recaptcha', label: 'Google reCAPTCHA' },
];

/**
 * The project's rules for its end users: passwords, token lifetimes, captcha, VPN policy and
 * unverified sign-in. They apply to its public API, hosted pages and OpenID Connect provider.
 */
export function ProjectEndUserRules({ projectId, settings, readOnly }: { projectId: string; settings: ProjectSettings; readOnly: boolean }) {
  const utils = trpc.useUtils();
  const update = trpc.projectSettings.update.useMutation();
  const form = useForm<RulesValues>({ mode: 'controlled', initialValues: rulesOf(settings), validate: resolver(RulesFormSchema) });

  const saved = JSON.stringify(rulesOf(settings));
  useEffect(() => {
    form.setInitialValues(rulesOf(settings));
    form.setValues(rulesOf(settings));
    form.resetDirty();
  }, [saved]);

  const onSave = form.onSubmit(async (values) => {
    try {
      const next = await update.mutateAsync({ id: projectId, ...rulesChanges(rulesOf(settings), values) });
      utils.projectSettings.get.setData({ id: projectId }, next);
      notify.success(SETTINGS_TEXTS.saved);
    } catch (error) {
      notifyFailure(SETTINGS_TEXTS.saveFailed, error);
    }
  });

  const { values } = form;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="end-user-rules-heading">
      <Title order={3} fz="md" id="end-user-rules-heading">
        End-user rules
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        How this project&apos;s users sign up and in, on the public API, the hosted pages and OpenID Connect. Until you change a rule, the platform&apos;s applies.
      </Text>
      <UnsavedChangesGuard when={!readOnly && form.isDirty()} onDiscard={() => form.reset()} />
      {readOnly && <ReadOnlyNote />}
      <form onSubmit={onSave} noValidate>
        <Fieldset variant="unstyled" disabled={readOnly}>
          <Stack gap="lg">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
              <NumberInput
                label="Minimum password length"
                description={`From ${PASSWORD_MIN_LENGTH} to ${PROJECT_PASSWORD_MIN_LENGTH_MAX} characters.`}
                min={PASSWORD_MIN_LENGTH}
                max={PROJECT_PASSWORD_MIN_LENGTH_MAX}
                allowDecimal={false}
                {...form.getInputProps('passwordMinLength')}
              />
              <Switch
                mt={{ sm: 'xl' }}
                label="Refuse common passwords"
                description="Passwords from the list of the most common, breached ones."
                {...form.getInputProps('checkBreached', { type: 'checkbox' })}
              />
              <NumberInput
                label="Access token lifetime (minutes)"
                description={formatMinutes(Number(values.accessMinutes)) || ' '}
                min={1}
                allowDecimal={false}
                {...form.getInputProps('accessMinutes')}
              />
              <NumberInput
                label="Refresh token lifetime (minutes)"
                description={`${formatMinutes(Number(values.refreshMinutes))}; also how long a session lasts without use.`}
                min={5}
                allowDecimal={false}
                {...form.getInputProps('refreshMinutes')}
              />
            </SimpleGrid>

            <Stack gap={6}>
              <Text size="sm" fw={500} id="vpn-policy-label">
                Sign-ins from VPN, proxy and hosting networks
              </Text>
              <SegmentedControl
                aria-labelledby="vpn-policy-label"
                data={[
                  { value: 'allow', label: 'Allow' },
                  { value: 'block', label: 'Block' },
                ]}
                w={{ base: '100%', xs: 240 }}
                {...form.getInputProps('vpnPolicy')}
              />
            </Stack>
            <Switch
              label="Let users sign in before they verify their e-mail address"
              description="Off: a right password for an unverified address is refused until the mailed link is opened."
              {...form.getInputProps('allowUnverified', { type: 'checkbox' })}
            />

            <Stack gap="sm">
              <Select
                label="Captcha"
                description="Asked on sign-up, sign-in and the forms that send mail, on the hosted pages and the public API (your backend passes the widget's token). The platform's is shown on the hosted pages only, if it has one; None asks for no captcha anywhere."
                data={CAPTCHA_OPTIONS}
                allowDeselect={false}
                {...form.getInputProps('captchaProvider')}
              />
              {isOwnCaptcha(values.captchaProvider) && (
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  <TextInput label="Site key" description="Public: the widget shows it." {...form.getInputProps('captchaSiteKey')} />
                  <PasswordInput
                    label="Secret"
                    description="Kept sealed; never shown again."
                    placeholder={values.captchaSecretSet ? 'Leave empty to keep the stored secret' : ''}
                    {...form.getInputProps('captchaSecret')}
                  />
                </SimpleGrid>
              )}
            </Stack>

            {!readOnly && (
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                  Discard changes
                </Button>
                <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
                  Save end-user rules
                </Button>
              </Group>
            )}
          </Stack>
        </Fieldset>
      </form>
    </Card>
  );
}
