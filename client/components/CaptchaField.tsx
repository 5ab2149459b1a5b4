import type {} from 'altcha/types/react';
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type CSSProperties, type Ref } from 'react';
import { Alert, Box, Loader, useComputedColorScheme } from '@mantine/core';
import { IconShieldExclamation } from '@tabler/icons-react';
import type { AltchaWidgetElement } from 'altcha';
import {
  ALTCHA_CHALLENGE_URL,
  PROVIDER_NAMES,
  altchaToken,
  loadAltcha,
  useCaptchaConfig,
  type AltchaEventDetail,
  type CaptchaProvider,
} from '../lib/captcha';
import { loadHostedCaptcha, type HostedCaptchaApi, type HostedProvider } from '../lib/hosted-captcha';

/**
 * Whether a "Continue with …" button can have a token now: 'loading' until the configuration is known,
 * 'unsolved' while a Turnstile, hCaptcha or reCAPTCHA widget waits for the visitor, else 'ready'.
 */
export type CaptchaStatus = 'loading' | 'ready' | 'unsolved';

/** What a form asks the captcha for, through the `ref` it passes. */
export interface CaptchaHandle {
  /** The `captcha_token` to send: '' when no captcha is configured; for ALTCHA the solved payload (solving now if needed). */
  token(): Promise<string>;
  /** Tokens work once: after a submit the widget starts over, so the next submit sends a fresh one. */
  reset(): void;
}

/** The widget follows the app's theme through Mantine's variables (light and dark). */
const altchaStyle = {
  '--altcha-max-width': '100%',
  '--altcha-border-radius': 'var(--mantine-radius-md)',
  '--altcha-border-color': 'var(--mantine-color-default-border)',
  '--altcha-color-base': 'var(--mantine-color-body)',
  '--altcha-color-base-content': 'var(--mantine-color-text)',
  '--altcha-color-primary': 'var(--mantine-primary-color-filled)',
  '--altcha-color-success': 'var(--mantine-color-teal-filled)',
  '--altcha-color-error': 'var(--mantine-color-red-filled)',
  display: 'block',
} as CSSProperties;

/** A promise opened once: a token asked for before the widget can give one waits on it. */
function latch(): { opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

function AltchaWidget({ handle }: { handle: Ref<CaptchaHandle> | undefined }) {
  const widget = useRef<AltchaWidgetElement | null>(null);
  const solved = useRef('');
  // Opens when the element is on the page, or when it cannot be (then the token is '').
  const [attached] = useState(latch);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    loadAltcha().then(
      () => live && setReady(true),
      (error: unknown) => {
        console.error('Could not load the captcha widget', error);
        attached.open();
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, []);

  // The element is created by React; its events are plain DOM events.
  const attach = useCallback((element: AltchaWidgetElement | null) => {
    widget.current = element;
    if (!element) return;
    attached.open();
    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<AltchaEventDetail>).detail ?? {};
      solved.current = detail.state === 'verified' && detail.payload ? detail.payload : '';
    };
    element.addEventListener('statechange', onStateChange);
    return () => {
      element.removeEventListener('statechange', onStateChange);
      widget.current = null;
      solved.current = '';
    };
  }, [attached]);

  useImperativeHandle(
    handle,
    () => ({
      // A submit or "Continue with…" before the widget's chunk has loaded waits for it, then solves.
      token: async () => {
        await attached.opened;
        return altchaToken(widget.current, solved.current);
      },
      reset: () => {
        solved.current = '';
        try {
          widget.current?.reset?.();
        } catch {
          /* not ready yet: nothing to reset */
        }
      },
    }),
    [attached],
  );

  if (failed) {
    return (
      <Alert color="red" variant="light" icon={<IconShieldExclamation size={18} />}>
        The captcha could not be loaded. Reload the page to try again.
      </Alert>
    );
  }
  if (!ready) {
    return (
      <Box py={6} role="status" aria-label="Loading captcha">
        <Loader size="sm" />
      </Box>
    );
  }
  return (
    <altcha-widget
      ref={attach}
      challenge={ALTCHA_CHALLENGE_URL}
      auto="onfocus"
      name="captcha_token"
      language="en"
      style={altchaStyle}
      data-testid="altcha-widget"
    />
  );
}

/** Turnstile, hCaptcha or reCAPTCHA: the provider's own widget, rendered explicitly into a container. */
function HostedWidget({
  provider,
  siteKey,
  handle,
  onSolvedChange,
}: {
  provider: HostedProvider;
  siteKey: string;
  handle: Ref<CaptchaHandle> | undefined;
  onSolvedChange: (solved: boolean) => void;
}) {
  const container = useRef<HTMLDivElement | null>(null);
  const api = useRef<HostedCaptchaApi | null>(null);
  const widgetId = useRef<string | number | undefined>(undefined);
  const solved = useRef('');
  const [failed, setFailed] = useState(false);
  const theme = useComputedColorScheme('light');

  useEffect(() => {
    let live = true;
    onSolvedChange(false);
    loadHostedCaptcha(provider).then(
      (loaded) => {
        if (!live || !container.current) return;
        api.current = loaded;
        widgetId.current = loaded.render(container.current, {
          sitekey: siteKey,
          theme,
          callback: (token: string) => {
            solved.current = token;
            onSolvedChange(Boolean(token));
          },
          'expired-callback': () => {
            solved.current = '';
            onSolvedChange(false);
          },
          'error-callback': () => {
            solved.current = '';
            onSolvedChange(false);
          },
        });
      },
      (error: unknown) => {
        console.error('Could not load the captcha widget', error);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
      container.current?.replaceChildren();
    };
    // The widget keeps the theme it was rendered with; re-rendering it would lose a solved token.
  }, [provider, siteKey]);

  useImperativeHandle(
    handle,
    () => ({
      token: async () => solved.current,
      reset: () => {
        solved.current = '';
        onSolvedChange(false);
        if (widgetId.current !== undefined) api.current?.reset(widgetId.current);
      },
    }),
    [],
  );

  if (failed) {
    return (
      <Alert color="red" variant="light" icon={<IconShieldExclamation size={18} />}>
        The {PROVIDER_NAMES[provider]} check could not be loaded. Reload the page to try again.
      </Alert>
    );
  }
  return <div ref={container} data-testid={`${provider}-widget`} />;
}

/**
 * The captcha of the sign-in, signup and forgot-password forms. Renders nothing when the server has no
 * captcha configured; ALTCHA (self-hosted proof of work) runs in the page; Turnstile, hCaptcha and
 * reCAPTCHA load the provider's widget (the server's CSP admits the configured provider's origins).
 */
export function CaptchaField({ ref, onStatusChange }: { ref?: Ref<CaptchaHandle>; onStatusChange?: (status: CaptchaStatus) => void }) {
  const { provider, siteKey } = useCaptchaConfig();
  return <CaptchaWidget ref={ref} provider={provider} siteKey={siteKey} onStatusChange={onStatusChange} />;
}

/** The captcha for a provider the caller already knows (the hosted pages read the config without tRPC). */
export function CaptchaWidget({
  ref,
  provider,
  siteKey,
  onStatusChange,
}: {
  ref?: Ref<CaptchaHandle>;
  /** null while the configuration is still on its way. */
  provider: CaptchaProvider | null;
  siteKey: string;
  onStatusChange?: (status: CaptchaStatus) => void;
}) {
  const widget = useRef<CaptchaHandle | null>(null);
  // Opens once the provider is known: a form submitted before then sends the token of the captcha it turns out to have.
  const [known] = useState(latch);
  const report = useRef(onStatusChange);
  report.current = onStatusChange;
  const onSolvedChange = useCallback((solved: boolean) => report.current?.(solved ? 'ready' : 'unsolved'), []);

  // ALTCHA solves when asked for its token, so without a widget to solve the form is ready once the provider is known.
  useEffect(() => {
    if (provider === null) {
      report.current?.('loading');
      return;
    }
    known.open();
    if (provider === 'none' || provider === 'altcha') report.current?.('ready');
  }, [provider, known]);

  useImperativeHandle(
    ref,
    () => ({
      token: async () => {
        await known.opened;
        return widget.current ? widget.current.token() : '';
      },
      reset: () => widget.current?.reset(),
    }),
    [known],
  );

  if (provider === null || provider === 'none') return null;
  if (provider === 'altcha') return <AltchaWidget handle={widget} />;
  return <HostedWidget provider={provider} siteKey={siteKey} handle={widget} onSolvedChange={onSolvedChange} />;
}
