import { cleanup } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, vi } from 'vitest';

// Mantine needs these browser APIs that jsdom does not implement.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

window.HTMLElement.prototype.scrollIntoView ??= function scrollIntoView() {};
window.scrollTo = (() => {}) as typeof window.scrollTo;
// jsdom has no canvas: the fingerprint falls back to its other signals.
window.HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

afterEach(() => {
  // The toast store is global: empty it so one test's toasts never satisfy the next one's assertions.
  notifications.clean();
  notifications.cleanQueue();
  cleanup();
  window.localStorage.clear();
  vi.restoreAllMocks();
});
