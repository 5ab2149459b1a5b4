import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';

/** A form's refusal (role=alert) or a note it brought (role=status), inside the card. */
export function FormAlert({ kind = 'error', children }: { kind?: 'error' | 'success'; children: ReactNode }) {
  const error = kind === 'error';
  return (
    <Alert
      color={error ? 'red' : 'teal'}
      variant="light"
      role={error ? 'alert' : 'status'}
      icon={error ? <IconAlertCircle size={18} /> : <IconCircleCheck size={18} />}
    >
      {children}
    </Alert>
  );
}
