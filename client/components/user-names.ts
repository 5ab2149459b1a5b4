import type { User } from '../../shared/schemas/user';

type NameFields = Pick<User, 'email' | 'first_name' | 'last_name'>;

/** The user-menu label: first name, or the e-mail when there is none. */
export function menuLabel(user: NameFields): string {
  return user.first_name?.trim() || user.email;
}

/** 'first_name last_name' when both exist, otherwise the e-mail. */
export function fullNameOrEmail(user: NameFields): string {
  const first = user.first_name?.trim();
  const last = user.last_name?.trim();
  return first && last ? `${first} ${last}` : user.email;
}

/** Any name the user gave (first, last or both), otherwise the e-mail. */
export function displayName(user: NameFields): string {
  const name = [user.first_name?.trim(), user.last_name?.trim()].filter(Boolean).join(' ');
  return name || user.email;
}

export function initials(user: NameFields): string {
  const first = user.first_name?.trim()?.[0];
  const last = user.last_name?.trim()?.[0];
  if (first || last) return `${first ?? ''}${last ?? ''}`.toUpperCase();
  return (user.email[0] ?? '?').toUpperCase();
}
