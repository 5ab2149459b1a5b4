/** What every list tab gets from the view: its page (kept while switching tabs) and the page size. */
export interface ListTabProps {
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
}
