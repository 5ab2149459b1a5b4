import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconFingerprint, IconMail } from '@tabler/icons-react';
import type { WebAuthnOptions } from '../../../shared/schemas/passkeys';
import type { StepUpEmailCodeAnswer, StepUpInput, StepUpMethod, StepUpStatus } from '../../../shared/schemas/step-up';
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
  /** Mails a code to an account whose only proof is its address (it signs in with a provider only). */
  sendEmailCode(): Promise<StepUpEmailCodeAnswer>;
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
 * shows the dialog that asks for the password, a code, a passkey or a code mailed to an account without
 * any of those when the server asks, then retries.
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

const LABELS: Record<StepUpMethod, HostedKey> = { password: 'stepUp.usePassword', totp: 'secondFactor.useApp', passkey: 'secondFactor.usePasskey', email: 'stepUp.sendCode' };

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
    <Modal opened onClose={pending.cancelled} title={t('stepUp.title')} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
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
        ) : method === 'email' ? (
          <EmailCodeStep source={source} busy={busy} onCancel={pending.cancelled} onCode={(emailCode) => prove(async () => ({ email_code: emailCode }))} onError={setError} />
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

/**
 * An account that signs in with a provider only: a code mailed to its address on request (not on
 * opening, so a dialog shown twice sends nothing twice), or signing in again with the provider.
 */
function EmailCodeStep({
  source,
  busy,
  onCancel,
  onCode,
  onError,
}: {
  source: StepUpSource;
  busy: boolean;
  onCancel: () => void;
  onCode: (code: string) => Promise<void>;
  onError: (message: string | null) => void;
}) {
  const { t, known } = useHostedT();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [code, setCode] = useState('');

  const send = async () => {
    onError(null);
    setSending(true);
    try {
      setSentTo((await source.sendEmailCode()).sent_to);
      setCode('');
    } catch (failure) {
      onError(known(source.errorMessage(failure, t('stepUp.failed'))));
    } finally {
      setSending(false);
    }
  };

  if (sentTo === null) {
    return (
      <Stack gap="md">
        <Text size="sm">{t('stepUp.emailIntro')}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button leftSection={<IconMail size={18} />} loading={sending} onClick={() => void send()}>
            {t('stepUp.sendCode')}
          </Button>
        </Group>
        <Anchor component="button" type="button" size="sm" onClick={source.signInAgain} style={{ alignSelf: 'flex-start' }}>
          {t('stepUp.orSignInAgain')}
        </Anchor>
      </Stack>
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onCode(code);
      }}
    >
      <Stack gap="md">
        <Text size="sm" role="status" style={{ overflowWrap: 'anywhere' }}>
          {t('stepUp.codeSent', { email: sentTo })}
        </Text>
        <TextInput
          label={t('stepUp.emailCode')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={7}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          data-autofocus
        />
        <Group justify="space-between" gap="sm">
          <Anchor component="button" type="button" size="sm" onClick={() => void send()} disabled={sending}>
            {t('stepUp.sendAnother')}
          </Anchor>
          <Group gap="sm">
            <Button variant="default" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={code.trim() === ''}>
              {t('stepUp.confirm')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
