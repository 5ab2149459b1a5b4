import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, expect, vi } from 'vitest';

// How long findBy*/waitFor wait for what they expect, set once for every client test: rendering Mantine in
// jsdom takes seconds on a loaded 2-core machine (another test run beside this one), far past the 1 s default;
// at a load average of 13-17 (four runs on two cores) a screen's first element took more than 15 s.
// A wait ends as soon as its element or assertion holds, so this costs nothing when the machine is quiet;
// vite.config.ts gives the client tests a testTimeout above it.
configure({ asyncUtilTimeout: 30_000 });

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

// Invalid HTML nesting (a <div> inside a <p>) renders differently in real browsers: any such warning fails the test.
const nestingWarnings: string[] = [];
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  const text = args.map(String).join(' ');
  if (/cannot be a descendant of|cannot contain a nested|cannot be a child of/.test(text)) nestingWarnings.push(text.split('\n')[0]!);
  consoleError(...args);
};

afterEach(() => {
  const warnings = nestingWarnings.splice(0);
  expect(warnings, 'React reported invalid HTML nesting').toEqual([]);
  // The toast store is global: empty it so one test's toasts never satisfy the next one's assertions.
  notifications.clean();
  notifications.cleanQueue();
  cleanup();
  window.localStorage.clear();
  vi.restoreAllMocks();
});
