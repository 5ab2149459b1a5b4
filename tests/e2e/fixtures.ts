import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every spec imports `test` from here: a page that throws an uncaught error, or logs a console error
 * (a CSP violation, a React error, a failed chunk), fails the test that opened it. A refused HTTP call
 * is logged by Chromium as "Failed to load resource"; the screens handle those, so they are allowed.
 */
export const test = base.extend<{ browserErrors: string[] }>({
  browserErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      const watch = (page: Page) => {
        page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
            errors.push(`${page.url()}: console error ${message.text()}`);
          }
        });
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use(errors);
      expect(errors, 'errors in the browser').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
