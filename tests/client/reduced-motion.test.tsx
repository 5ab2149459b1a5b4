import { MantineProvider, Modal, type MantineThemeOverride } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { brandTheme } from '../../client/hosted/brand-theme';
import { theme } from '../../client/theme';

/** People who ask their system for less motion see dialogs, menus and popovers appear without a transition. */

function prefersReducedMotion(reduce: boolean) {
  const matchMedia = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
    ...matchMedia(query),
    matches: query.includes('prefers-reduced-motion: reduce') ? reduce : matchMedia(query).matches,
  }));
}

async function openedDialog(withTheme: MantineThemeOverride) {
  const page = (opened: boolean) => (
    <MantineProvider theme={withTheme}>
      <Modal opened={opened} onClose={() => {}} title="Delete project">
        Are you sure?
      </Modal>
    </MantineProvider>
  );
  // Opened after the page has rendered, as a person opens it.
  const { rerender } = render(page(false));
  rerender(page(true));
  return screen.findByRole('dialog', { name: 'Delete project' });
}

describe.each([
  ['the dashboard', theme],
  ['the hosted pages', brandTheme(null)],
  ["the hosted pages with a project's accent", brandTheme('#0ca678')],
])('%s', (_, withTheme) => {
  it('open a dialog with a transition by default', async () => {
    prefersReducedMotion(false);
    expect((await openedDialog(withTheme)).style.transitionDuration).not.toBe('');
  });

  it('open it without one when the system asks for less motion', async () => {
    prefersReducedMotion(true);
    expect((await openedDialog(withTheme)).style.transitionDuration).toBe('');
  });
});
