import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every spec imports `test` from here: a page that throws an uncaught error, or logs a console error
 * (a CSP violation, a React error, a failed chunk), fails the test that opened it. A refused HTTP call
 * is logged by Chromium as "Failed to load resource"; the screens handle those, so they are allowed.
 * So is Chromium blocking a script in a sandboxed `about:srcdoc` frame: the mail preview is rendered
 * in a frame that may run none, and the only script ever sent into it is Playwright's own (its
 * screenshots hide the caret in every frame), which a run on a busy machine sometimes hits.
 */
const TOLERATED = [/^Failed to load resource/, /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/];
export const test = base.extend<{ browserErrors: string[] }>({
  browserErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      const watch = (page: Page) => {
        page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error' && !TOLERATED.some((pattern) => pattern.test(message.text()))) {
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
