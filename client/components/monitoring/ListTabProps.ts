import type { ListFilters } from './source';

/** What every list tab gets from the view: its page and filters (kept while switching tabs) and the page size. */
export interface ListTabProps {
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  filters: ListFilters;
  /** Sets one filter (empty or null clears it) and goes back to the first page. */
  onFilterChange: (name: string, value: string | null) => void;
}
