import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { SETTINGS_TEXTS } from '../../messages';

/** Above a card a viewer can read but not change. */
export function ReadOnlyNote() {
  return (
    <Alert variant="light" color="gray" icon={<IconLock size={16} />} mb="md" title="Read only">
      {SETTINGS_TEXTS.readOnly}
    </Alert>
  );
}
