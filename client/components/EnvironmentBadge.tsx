import { Badge } from '@mantine/core';
import type { ENVIRONMENTS } from '../../shared/constants';

type Environment = (typeof ENVIRONMENTS)[number];

const COLORS: Record<Environment, string> = { development: 'blue', staging: 'yellow', production: 'teal' };

export function EnvironmentBadge({ environment }: { environment: Environment }) {
  return (
    <Badge color={COLORS[environment]} variant="light" size="sm">
      {environment}
    </Badge>
  );
}
