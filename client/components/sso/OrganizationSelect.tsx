import { useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import { SEARCH_DEBOUNCE_MS } from '../monitoring/ListToolbar';
import type { OrganizationOption } from './SsoConnectionForm';

/** What one page of the organization list holds: past it, the select searches the server. */
export const ORGANIZATION_PAGE = 100;

/**
 * The organization a connection or a setup link is for. The first page (`initial`, the parent's list) while nothing is
 * typed; a project with more organizations is searched by name on the server as the person types.
 */
export function OrganizationSelect({
  projectId,
  initial,
  total,
  value,
  onChange,
  description,
}: {
  projectId: string;
  initial: OrganizationOption[];
  total: number;
  value: string | null;
  onChange(value: string | null): void;
  description?: string;
}) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<OrganizationOption | null>(null);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const many = total > initial.length;
  const found = trpc.organizations.list.useQuery(
    { id: projectId, limit: ORGANIZATION_PAGE, q: debounced },
    { enabled: many && debounced !== '', placeholderData: keepPreviousData },
  );
  const searched = many && debounced !== '' ? (found.data?.organizations ?? []).map((organization) => ({ value: organization.id, label: organization.name })) : [];
  // The chosen one stays listed whatever the search shows, so its name stays in the field.
  const shown = many && debounced !== '' ? searched : initial;
  const options = picked && picked.value === value && !shown.some((option) => option.value === picked.value) ? [picked, ...shown] : shown;
  return (
    <Select
      label="Organization"
      description={many ? `${description ? `${description} ` : ''}Type to search the project's ${total} organizations.` : description}
      data={options}
      value={value}
      onChange={(chosen, option) => {
        setPicked(option ? { value: option.value, label: option.label } : null);
        onChange(chosen);
      }}
      searchValue={search}
      onSearchChange={setSearch}
      searchable
      required
      nothingFoundMessage={many && found.isFetching ? 'Searching…' : 'No organization of that name'}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
