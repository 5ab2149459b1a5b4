import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, CloseButton, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconSearch } from '@tabler/icons-react';

/** How long typing must pause before a search reaches the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/** A search box that reports its (trimmed) text once typing pauses. */
export function SearchField({ label, placeholder, value, onSearch }: { label: string; placeholder: string; value: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;
  const first = useRef(true);
  // Only a change of the debounced text searches: clearing reports at once, and a stale debounce must not undo it.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    onSearchRef.current(debounced);
  }, [debounced]);

  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      leftSection={<IconSearch size={16} />}
      rightSection={
        text ? (
          <CloseButton
            size="sm"
            aria-label="Clear search"
            onClick={() => {
              setText('');
              onSearch('');
            }}
          />
        ) : null
      }
      w={{ base: '100%', xs: 260 }}
    />
  );
}

/** One choice among a list's filters; clearing it shows everything again. */
export function FilterSelect({
  label,
  placeholder,
  data,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  data: { value: string; label: string }[] | { group: string; items: { value: string; label: string }[] }[];
  value: string | undefined;
  onChange: (value: string | null) => void;
}) {
  return (
    <Select
      aria-label={label}
      placeholder={placeholder}
      data={data}
      value={value ?? null}
      onChange={onChange}
      clearable
      w={{ base: '100%', xs: 200 }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** The day (YYYY-MM-DD) of a `from` or `to` filter, for a date field. */
const dayOf = (value: string | undefined) => value?.slice(0, 10) ?? '';

/**
 * A range of days bounding a list (`from`, `to`), in UTC as the server reads them: `from` starts at
 * the beginning of its day and `to` reaches the end of its day, so one day chosen twice shows that day.
 */
export function DateRangeFields({ from, to, onChange }: { from: string | undefined; to: string | undefined; onChange: (name: 'from' | 'to', value: string | null) => void }) {
  return (
    <>
      <TextInput
        type="date"
        aria-label="From"
        leftSection={<Text size="xs" c="dimmed">From</Text>}
        leftSectionWidth={48}
        value={dayOf(from)}
        max={dayOf(to) || undefined}
        onChange={(event) => onChange('from', event.currentTarget.value || null)}
        w={{ base: '100%', xs: 190 }}
      />
      <TextInput
        type="date"
        aria-label="To"
        leftSection={<Text size="xs" c="dimmed">To</Text>}
        leftSectionWidth={36}
        value={dayOf(to)}
        min={dayOf(from) || undefined}
        onChange={(event) => onChange('to', event.currentTarget.value ? `${event.currentTarget.value}T23:59:59.999Z` : null)}
        w={{ base: '100%', xs: 190 }}
      />
    </>
  );
}

/** A two-letter country code; it filters once both letters are in (or when cleared). */
export function CountryField({ value, onChange }: { value: string | undefined; onChange: (value: string | null) => void }) {
  const [text, setText] = useState(value ?? '');
  return (
    <TextInput
      aria-label="Country"
      placeholder="Country (e.g. US)"
      value={text}
      maxLength={2}
      onChange={(event) => {
        const code = event.currentTarget.value.replace(/[^A-Za-z]/g, '').toUpperCase();
        setText(code);
        if (code.length === 2 || code.length === 0) onChange(code || null);
      }}
      w={{ base: '100%', xs: 150 }}
    />
  );
}

/** A link to a list's CSV export: the server answers it as a download, with the session's cookies. */
export function ExportLink({ href }: { href: string }) {
  return (
    <Button component="a" href={href} download variant="default" leftSection={<IconDownload size={16} />}>
      Export CSV
    </Button>
  );
}

/** The row above a list: its search and filters on the left, the export on the right. */
export function ListToolbar({ children, end }: { children: ReactNode; end?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm" mb="md">
      <Group gap="sm" align="flex-end">
        {children}
      </Group>
      {end}
    </Group>
  );
}
