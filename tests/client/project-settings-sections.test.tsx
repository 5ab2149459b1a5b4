import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { Project } from '../../shared/schemas/projects';
import { SETTINGS_SECTIONS } from '../../client/components/projects/settings/sections';
import { readableDetail } from '../../client/lib/readable-errors';
import { callsTo, currentPath, renderApp, sampleEndUserSettings, sampleProject, sampleUser, trpcError } from './utils';

/** Project detail → Settings: one section per address, a guard on unsaved edits, typed deletion, refusals in words. */

function renderSettings(path: string, { update }: { update?: (input: unknown) => unknown } = {}) {
  let saved: Project = sampleProject({ id: 'p_1', name: 'Acme Storefront', description: 'Shop sign-in' });
  return renderApp(path, {
    user: sampleUser,
    handlers: {
      'projects.get': () => saved,
      'projects.update': (input) => {
        if (update) return update(input);
        const { id: _id, ...changes } = input as Partial<Project>;
        saved = { ...saved, ...changes };
        return saved;
      },
      'projects.delete': () => ({ message: 'Project deleted successfully' }),
      'projects.list': () => ({ projects: [] }),
      'projects.dashboardStats': () => ({}),
      'projectSettings.get': () => sampleEndUserSettings,
      'social.connections': () => ({ connections: [] }),
    },
  });
}

const nav = () => within(screen.getByRole('navigation', { name: 'Settings sections' }));

describe('Project settings sections', () => {
  it('lists every section of SETTINGS_SECTIONS, in order, each at its own address', async () => {
    renderSettings('/projects/p_1/settings/general');
    await screen.findByRole('heading', { level: 2, name: 'General' });
    const links = nav().getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'General',
      'Sign-in methods & connections',
      'Enterprise SSO',
      'Branding & hosted pages',
      'Mails',
      'Webhooks',
      'Machine clients',
      'End-user rules',
      'Team',
      'Danger zone',
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual(SETTINGS_SECTIONS.map((section) => `/projects/p_1/settings/${section.id}`));
    expect(nav().getByRole('link', { name: 'General' }).getAttribute('aria-current')).toBe('page');
  });

  it('opens General for /settings, an unknown section and the old ?tab=settings; ?tab=team opens Team', async () => {
    const first = renderSettings('/projects/p_1/settings');
    expect(await screen.findByRole('heading', { level: 2, name: 'General' })).toBeTruthy();
    expect(nav().getByRole('link', { name: 'General' }).getAttribute('aria-current')).toBe('page');
    first.unmount();
    for (const [from, to] of [
      ['/projects/p_1/settings/nope', '/projects/p_1/settings/general'],
      ['/projects/p_1?tab=settings', '/projects/p_1/settings/general'],
      ['/projects/p_1?tab=team', '/projects/p_1/settings/team'],
    ]) {
      const { unmount } = renderSettings(from!);
      await waitFor(() => expect(currentPath()).toBe(to));
      unmount();
    }
  });

  it('moves between sections with the browser’s history: each section is an entry', async () => {
    const { user, router } = renderSettings('/projects/p_1/settings/general');
    await screen.findByRole('heading', { level: 2, name: 'General' });
    await user.click(nav().getByRole('link', { name: 'Webhooks' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Webhooks' })).toBeTruthy();
    await act(() => router.navigate(-1));
    await waitFor(() => expect(currentPath()).toBe('/projects/p_1/settings/general'));
  });

  it('holds a section with unsaved edits in the app’s dialog: Stay keeps the edit, Discard goes on', async () => {
    const { user } = renderSettings('/projects/p_1/settings/general');
    const name = await screen.findByRole('textbox', { name: /^Project name/ });
    await user.type(name, ' v2');
    await user.click(nav().getByRole('link', { name: 'Mails' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' }));
    await user.click(dialog.getByRole('button', { name: 'Stay and keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard unsaved changes?' })).toBeNull());
    expect(currentPath()).toBe('/projects/p_1/settings/general');
    expect((screen.getByRole('textbox', { name: /^Project name/ }) as HTMLInputElement).value).toBe('Acme Storefront v2');

    // The Overview tab is leaving too.
    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' }));
    await user.click(dialog.getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(currentPath()).toBe('/projects/p_1'));
  });

  it('holds the browser’s back too, and lets a saved section go without asking', async () => {
    const { user, router, calls } = renderSettings('/projects/p_1/settings/general');
    await screen.findByRole('heading', { level: 2, name: 'General' });
    await user.click(nav().getByRole('link', { name: 'Sign-in methods & connections' }));
    const origins = await screen.findByRole('textbox', { name: /^Allowed origins/ });
    await user.type(origins, 'https://shop.example');
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).toBeTruthy();
    expect(currentPath()).toBe('/projects/p_1/settings/sign-in');
    await user.click(screen.getByRole('button', { name: 'Stay and keep editing' }));

    await user.click(screen.getByRole('button', { name: 'Save sign-in settings' }));
    expect(await screen.findByText('Project updated successfully')).toBeTruthy();
    expect(callsTo(calls, 'projects.update')[0]?.input).toMatchObject({ allowed_origins: ['https://shop.example'] });
    await waitFor(() => expect((screen.getByRole('button', { name: 'Save sign-in settings' }) as HTMLButtonElement).disabled).toBe(true));
    await user.click(nav().getByRole('link', { name: 'Team' }));
    await waitFor(() => expect(currentPath()).toBe('/projects/p_1/settings/team'));
    expect(screen.queryByRole('dialog', { name: 'Discard unsaved changes?' })).toBeNull();
  });

  it('deletes the project from the Danger zone only once its name is typed', async () => {
    const { user, calls } = renderSettings('/projects/p_1/settings/danger');
    await user.click(await screen.findByRole('button', { name: 'Delete project' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete project' }));
    const confirm = dialog.getByRole('button', { name: 'Delete project' }) as HTMLButtonElement;
    await user.type(dialog.getByRole('textbox', { name: 'Type Acme Storefront to confirm' }), 'acme storefront');
    expect(confirm.disabled).toBe(true);
    await user.click(confirm);
    expect(callsTo(calls, 'projects.delete')).toHaveLength(0);
    await user.clear(dialog.getByRole('textbox', { name: 'Type Acme Storefront to confirm' }));
    await user.type(dialog.getByRole('textbox', { name: 'Type Acme Storefront to confirm' }), 'Acme Storefront');
    await user.click(confirm);
    expect(await screen.findByText('Project deleted successfully')).toBeTruthy();
    expect(callsTo(calls, 'projects.delete')[0]?.input).toEqual({ id: 'p_1' });
    await waitFor(() => expect(currentPath()).toBe('/projects'));
  });

  it('says a refusal in words: no field names of the API, no server settings', async () => {
    const { user } = renderSettings('/projects/p_1/settings/sign-in', {
      update: () => {
        throw trpcError('UNPROCESSABLE_CONTENT', 'Each of redirect_uris must be registered for this project', 422);
      },
    });
    await user.type(await screen.findByRole('textbox', { name: /^Redirect URIs/ }), 'https://shop.example/callback');
    await user.click(screen.getByRole('button', { name: 'Save sign-in settings' }));
    expect(await screen.findByText('Each of the redirect URIs must be registered for this project')).toBeTruthy();
  });
});

describe('readableDetail', () => {
  it('puts the API’s field names and the operator’s settings in words, and leaves the rest alone', () => {
    expect(readableDetail('url must be a public address (WEBHOOKS_ALLOW_PRIVATE=on allows private ones)')).toBe(
      "The URL must be a public address. This server's operator decides whether that is allowed.",
    );
    expect(readableDetail('accent_color must be a colour like #3b5bdb')).toBe('Accent colour must be a colour like #3b5bdb');
    expect(readableDetail('post_logout_redirect_uris can hold at most 20 addresses')).toBe('Post-logout redirect URIs can hold at most 20 addresses');
    expect(readableDetail('Project not found')).toBe('Project not found');
    expect(readableDetail('The url you gave is fine')).toBe('The url you gave is fine');
  });
});
