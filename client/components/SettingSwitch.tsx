import { useId } from 'react';
import { Switch } from '@mantine/core';

/**
 * A labelled toggle whose accessible name is just its label (Mantine wraps label and description in one
 * <label>, which would make the description part of the name); the description is linked instead.
 */
export function SettingSwitch({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <Switch
      label={label}
      description={<span id={id}>{description}</span>}
      aria-label={label}
      aria-describedby={id}
      checked={checked}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}
