import type { PageAction } from './oauth-error.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page the authorization and logout endpoints show when they cannot trust where to send the
 * user: a plain, self-contained document in the system's light or dark scheme, readable at 375 px.
 */
export function errorPage(title: string, description: string, actions: readonly PageAction[] = []): string {
  const links = actions.map((action, index) => `<a href="${escapeHtml(action.href)}"${index === 0 ? ' class="primary"' : ''}>${escapeHtml(action.label)}</a>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f8f9fa; color: #212529; }
  main { max-width: 28rem; margin: 1.5rem; padding: 2rem; border-radius: 12px; background: #fff; box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  p { margin: 0; color: #495057; overflow-wrap: anywhere; }
  nav { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.5rem; }
  nav a { padding: 0.5rem 1rem; border-radius: 6px; border: 1px solid #ced4da; color: inherit; text-decoration: none; font-weight: 600; }
  nav a.primary { background: #228be6; border-color: #228be6; color: #fff; }
  @media (prefers-color-scheme: dark) {
    body { background: #1a1b1e; color: #e9ecef; }
    main { background: #25262b; box-shadow: none; }
    p { color: #adb5bd; }
    nav a { border-color: #495057; }
  }
</style>
</head>
<body><main role="alert"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(description)}</p>${links ? `<nav>${links}</nav>` : ''}</main></body>
</html>`;
}
