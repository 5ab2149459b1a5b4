import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from './fixtures';
import { captureScreen } from './support';

/** Helpers of the specs that set things up over tRPC and take their own screenshots (social sign-in, webhooks). */

/** A tRPC call over the request context (its cookies): the answer's data, or the test fails with the body. */
export async function trpc<T>(request: APIRequestContext, procedure: string, data: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** Screenshots named `<prefix>-<name>.png` in E2E.screenshotDir. */
export function screenshots(prefix: string) {
  const shoot = async (page: Page, name: string, target?: Locator) => {
    await captureScreen(page, `${prefix}-${name}`, { target });
  };

  /** Light, dark (through the page's own toggle) and 375 px wide; leaves the page light at 1280 px. */
  const shootThemes = async (page: Page, name: string, target?: () => Locator) => {
    await shoot(page, `${name}-light`, target?.());
    await page.getByRole('button', { name: 'Switch to dark mode' }).first().click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await shoot(page, `${name}-dark`, target?.());
    await page.setViewportSize({ width: 375, height: 812 });
    await shoot(page, `${name}-375-dark`, target?.());
    await page.getByRole('button', { name: 'Switch to light mode' }).first().click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await shoot(page, `${name}-375-light`, target?.());
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  return { shoot, shootThemes };
}
