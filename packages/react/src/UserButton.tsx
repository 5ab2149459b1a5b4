import { useEffect, useId, useRef, useState } from 'react';
import type { User } from '@authplatform/js';
import { useAuthContext } from './context.js';
import { Styles } from './Styles.js';
import { useAuth } from './useAuth.js';

export interface UserButtonProps {
  /** The menu's texts, for another language. */
  labels?: Partial<typeof LABELS>;
  className?: string;
}

const LABELS = {
  open: 'Open user menu',
  account: 'Manage account',
  organizations: 'Organizations',
  signOut: 'Sign out',
};

function initialsOf(user: User): string {
  const name = user.name ?? ([user.givenName, user.familyName].filter(Boolean).join(' ') || user.email || '?');
  const parts = name.split(/[\s@.]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts[1]?.[0] ?? '') : '')).toUpperCase();
}

/**
 * The signed-in user's avatar; its menu links to the hosted account page, lists the user's
 * organizations (switching moves the session into one) and signs out. Nothing when signed out.
 */
export function UserButton({ labels, className }: UserButtonProps) {
  const text = { ...LABELS, ...labels };
  const { accountUrl } = useAuthContext();
  const { user, organization, signOut, switchOrganization } = useAuth();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    root.current?.querySelector<HTMLElement>('[role^=menuitem]')?.focus();
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  if (!user) return null;
  const label = user.name ?? user.email ?? user.id;
  return (
    <div ref={root} className={`ap-root${className ? ` ${className}` : ''}`}>
      <Styles />
      <button type="button" className="ap-avatar" aria-label={text.open} aria-haspopup="menu" aria-expanded={open} aria-controls={open ? menuId : undefined} onClick={() => setOpen(!open)}>
        {initialsOf(user)}
      </button>
      {open && (
        <div id={menuId} role="menu" aria-label={label} className="ap-menu">
          <div className="ap-header">
            {user.name && <div className="ap-name">{user.name}</div>}
            {user.email && <div className="ap-email">{user.email}</div>}
          </div>
          <a role="menuitem" className="ap-item" href={accountUrl}>
            {text.account}
          </a>
          {user.organizations.length > 0 && (
            <div role="group" aria-label={text.organizations}>
              <div className="ap-label" aria-hidden="true">
                {text.organizations}
              </div>
              {user.organizations.map((membership) => (
                <button
                  key={membership.id}
                  type="button"
                  role="menuitemradio"
                  aria-checked={organization?.id === membership.id}
                  className="ap-item"
                  onClick={() => {
                    setOpen(false);
                    if (organization?.id !== membership.id) void switchOrganization(membership.id);
                  }}
                >
                  {membership.name}
                </button>
              ))}
            </div>
          )}
          <div className="ap-separator" role="separator" />
          <button
            type="button"
            role="menuitem"
            className="ap-item"
            onClick={() => {
              setOpen(false);
              void signOut();
            }}
          >
            {text.signOut}
          </button>
        </div>
      )}
    </div>
  );
}
