import { Anchor, type AnchorProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A link the product shows but that has no destination yet (documentation, legal pages). */
export function PlaceholderLink({ children, ...props }: AnchorProps & { children: ReactNode }) {
  return (
    <Anchor href="#" c="dimmed" {...props} onClick={(event) => event.preventDefault()}>
      {children}
    </Anchor>
  );
}
