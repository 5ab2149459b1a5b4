import { SettingsSection, type SectionProps } from '../../components/settings/SettingsSection';

/** One titled card of the account page (the platform's settings card, with less padding on phones). */
export function AccountSection(props: SectionProps) {
  return <SettingsSection {...props} p={{ base: 'md', sm: 'xl' }} component="section" aria-label={props.title} />;
}
