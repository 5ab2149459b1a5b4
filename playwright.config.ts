import { defineConfig } from '@playwright/test';
import { E2E } from './tests/e2e/env';

/**
 * End-to-end tests: the production build served by the real server (fresh SQLite, mail caught on loopback),
 * driven in Debian's Chromium. Playwright never downloads a browser here.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '*.spec.ts',
  // screenshots.spec.ts walks the main screens only to picture them; the other specs check the same screens (each
  // heading, axe in both themes, the 375 px layout), so a run that writes no pictures (CI) leaves it out.
  testIgnore: E2E.captureScreenshots ? [] : ['screenshots.spec.ts'],
  globalSetup: './tests/e2e/global-setup.ts',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // Bounds, not waits: a test ends when its steps do, an expectation as soon as it holds. At a load average of 20-28
  // on two cores (other runs beside this one) a single public screen's axe scan took longer than 30 s and the lazily
  // loaded /api-docs screen longer than 7 s to show its heading: both failed on the clock alone.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    baseURL: E2E.baseURL,
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    // The browser asks for less motion, which the app honours: dialogs and menus appear without a transition for a step
    // to wait out (three specs, 24 tests: 110 CPU-s instead of 116).
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'UTC',
    // A failed test keeps its trace (each step's DOM snapshot, the network, the console) and a screenshot of its end.
    // The trace's screencast is left out: it made Chromium paint and encode frames all through every passing test, about
    // 30 % of the run's CPU (three specs: 245 and 225 CPU-s with it, 169 without; the machine is CPU-bound here).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});
