import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import type { MonitorActions, MonitorSource } from './source';

/** Which row (item id) and which of its buttons. */
export interface PendingAction {
  id: string;
  action: string;
}

export interface ActionTexts {
  success: string;
  failure: string;
}

interface MonitorContextValue {
  source: MonitorSource;
  actions: MonitorActions;
  /** The action in flight, to show its button busy and hold the other buttons of its row. */
  pending: PendingAction | null;
  /** Runs an action: toast, then reload every view of the scope (also after a failure: the data may have moved). */
  run: (target: PendingAction, action: () => Promise<unknown>, texts: ActionTexts) => Promise<void>;
  /** A failed load: one toast, even when several views fail together. */
  reportLoadError: (error: unknown) => void;
}

const MonitorContext = createContext<MonitorContextValue | null>(null);

const LOAD_TOAST_GAP_MS = 2000;

export function MonitorProvider({ source, children }: { source: MonitorSource; children: ReactNode }) {
  const actions = source.useActions();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const lastLoadToast = useRef(0);
  const actionsRef = useRef(actions);
  actionsRef.current = actions;

  const run = useCallback(async (target: PendingAction, action: () => Promise<unknown>, texts: ActionTexts) => {
    setPending(target);
    try {
      await action();
      notify.success(texts.success);
    } catch (error) {
      notify.error(errorMessage(error, texts.failure));
    } finally {
      setPending(null);
      await actionsRef.current.reload().catch(() => undefined);
    }
  }, []);

  const reportLoadError = useCallback(
    (error: unknown) => {
      const now = Date.now();
      if (now - lastLoadToast.current < LOAD_TOAST_GAP_MS) return;
      lastLoadToast.current = now;
      notify.error(errorMessage(error, source.loadFailedText));
    },
    [source],
  );

  const value = useMemo(() => ({ source, actions, pending, run, reportLoadError }), [source, actions, pending, run, reportLoadError]);
  return <MonitorContext.Provider value={value}>{children}</MonitorContext.Provider>;
}

/** Props for an action button of a row: busy while it runs, held while another button of the row runs. */
export function actionState(pending: PendingAction | null, id: string, action: string) {
  const mine = pending?.id === id;
  return { loading: mine && pending?.action === action, disabled: mine && pending?.action !== action };
}

export function useMonitor(): MonitorContextValue {
  const value = useContext(MonitorContext);
  if (!value) throw new Error('useMonitor must be used inside <MonitorProvider>');
  return value;
}

/** Toasts once each time a query fails. */
export function useLoadErrorToast(error: unknown) {
  const { reportLoadError } = useMonitor();
  useEffect(() => {
    if (error) reportLoadError(error);
  }, [error, reportLoadError]);
}
