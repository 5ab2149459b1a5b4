import type { UserDetail } from '../../../shared/schemas/user-detail';

/**
 * RESERVED: the user's organizations card. Organizations are being added separately (a
 * server/modules/organizations module); once the user detail carries them, render a card here
 * (organization name, the user's role, joined) in the card style of the page's other sections.
 * Until then it renders nothing, so the page's layout does not change when it arrives.
 */
export function OrganizationsSection(_props: { user: UserDetail; readOnly: boolean }) {
  return null;
}
