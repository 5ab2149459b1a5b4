import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import type { WebAuthnOptions } from '../../../shared/schemas/passkeys';
import type { StepUpInput, StepUpMethod, StepUpStatus } from '../../../shared/schemas/step-up';
import { answerWithPasskey, PasskeyCancelled } from '../../lib/passkeys';
import { StepUpCancelled, stepUpMethodsOf } from '../../lib/step-up';
import { PasswordField } from '../PasswordField';
import { useHostedT } from '../../i18n/useHostedT';
import type { HostedKey } from '../../../shared/i18n/catalogue';

/** How the dialog proves who the user is: the platform's tRPC procedures or a project's hosted API. */
export interface StepUpSource {
  status(): Promise<StepUpStatus>;
  confirm(proof: StepUpInput): Promise<unknown>;
  passkeyOptions(): Promise<WebAuthnOptions>;
  errorMessage(failure: unknown, fallback: string): string;
  /** For an account with no proof to give here (it signs in with a provider only): sign in again. */
  signInAgain(): void;
}

export interface StepUp {
  /** Runs a sensitive change; when it is refused for want of a recent proof, asks for one and runs it again. Rejects with StepUpCancelled if the user closes the dialog. */
  guard<T>(change: () => Promise<T>): Promise<T>;
  /** Asks for a proof first if the session needs one (before a navigation that will need it, such as connecting a provider). */
  ensure(): Promise<void>;
}

const WITHOUT_STEP_UP: StepUp = { guard: (change) => change(), ensure: async () => {} };
const StepUpContext = createContext<StepUp | null>(null);

/** The step-up of the nearest StepUpProvider; outside one, changes simply run (and a refusal reaches the caller). */
export function useStepUp(): StepUp {
  return useContext(StepUpContext) ?? WITHOUT_STEP_UP;
}

interface Pending {
  methods: StepUpMethod[];
  done: () => void;
  cancelled: () => void;
}

/**
 * Adding a way into the account or changing its address needs a proof of who the user is within a few
 * minutes (the server's step-up). The cards run those changes through `useStepUp().guard`; this provider
 * shows the dialog that asks for the password, a code or a passkey when the server asks, then retries.
 */
export function StepUpProvider({ source, children }: { source: StepUpSource; children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const sourceRef = useRef(source);
  sourceRef.current = source;

  const stepUp = useMemo<StepUp>(() => {
    const ask = (methods: StepUpMethod[]) =>
      new Promise<void>((resolve, reject) => {
        setPending({
          methods,
          done: () => {
            setPending(null);
            resolve();
          },
          cancelled: () => {
            setPending(null);
            reject(new StepUpCancelled());
          },
        });
      });
    return {
      async guard(change) {
        try {
          return await change();
        } catch (failure) {
          const methods = stepUpMethodsOf(failure);
          if (!methods) throw failure;
          await ask(methods);
          return change();
        }
      },
      async ensure() {
        const status = await sourceRef.current.status();
        if (status.step_up_required) await ask(status.step_up_methods);
      },
    };
  }, []);

  return (
    <StepUpContext.Provider value={stepUp}>
      {children}
      {pending && <StepUpDialog key={pending.methods.join()} pending={pending} source={source} />}
    </StepUpContext.Provider>
  );
}

const LABELS: Record<StepUpMethod, HostedKey> = { password: 'stepUp.usePassword', totp: 'secondFactor.useApp', passkey: 'secondFactor.usePasskey' };

function StepUpDialog({ pending, source }: { pending: Pending; source: StepUpSource }) {
  const { methods } = pending;
  const [method, setMethod] = useState<StepUpMethod | undefined>(methods[0]);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { t, known } = useHostedT();

  const prove = async (proof: () => Promise<StepUpInput>) => {
    setError(null);
    setBusy(true);
    try {
      await source.confirm(await proof());
      pending.done();
    } catch (failure) {
      if (!(failure instanceof PasskeyCancelled)) setError(known(source.errorMessage(failure, t('stepUp.failed'))));
    } finally {
      setBusy(false);
    }
  };
  const choose = (next: StepUpMethod) => {
    setMethod(next);
    setValue('');
    setError(null);
  };

  return (
    <Modal opened onClose={pending.cancelled} title={t('stepUp.title')} centered>
      <Stack gap="md">
        <Text size="sm">{t('stepUp.why')}</Text>
        {method === undefined ? (
          <>
            <Text size="sm">{t('stepUp.otherService')}</Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={pending.cancelled}>
                {t('common.cancel')}
              </Button>
              <Button onClick={source.signInAgain}>{t('stepUp.signInAgain')}</Button>
            </Group>
          </>
        ) : method === 'passkey' ? (
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={pending.cancelled}>
              {t('common.cancel')}
            </Button>
            <Button
              leftSection={<IconFingerprint size={18} />}
              loading={busy}
              onClick={() => void prove(async () => ({ passkey_response: await answerWithPasskey(await source.passkeyOptions()) }))}
            >
              {t('secondFactor.usePasskey')}
            </Button>
          </Group>
        ) : (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void prove(async () => (method === 'password' ? { password: value } : { code: value }));
            }}
          >
            <Stack gap="md">
              {method === 'password' ? (
                <PasswordField label={t('common.password')} autoComplete="current-password" value={value} onChange={(event) => setValue(event.currentTarget.value)} data-autofocus />
              ) : (
                <TextInput
                  label={t('twoFactor.codeOrRecovery')}
                  autoComplete="one-time-code"
                  inputMode="text"
                  value={value}
                  onChange={(event) => setValue(event.currentTarget.value)}
                  data-autofocus
                />
              )}
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={pending.cancelled}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" loading={busy} disabled={value.trim() === ''}>
                  {t('stepUp.confirm')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        {methods.length > 1 && (
          <Group gap="md">
            {methods
              .filter((other) => other !== method)
              .map((other) => (
                <Anchor key={other} component="button" type="button" size="sm" onClick={() => choose(other)}>
                  {t(LABELS[other])}
                </Anchor>
              ))}
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
