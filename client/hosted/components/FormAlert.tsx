import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useHostedT } from '../../i18n/useHostedT';

/** A form's refusal (role=alert) or a note it brought (role=status), inside the card. */
export function FormAlert({ kind = 'error', children }: { kind?: 'error' | 'success'; children: ReactNode }) {
  const error = kind === 'error';
  const { known } = useHostedT();
  return (
    <Alert
      color={error ? 'red' : 'teal'}
      variant="light"
      role={error ? 'alert' : 'status'}
      icon={error ? <IconAlertCircle size={18} /> : <IconCircleCheck size={18} />}
    >
      {typeof children === 'string' ? known(children) : children}
    </Alert>
  );
}
