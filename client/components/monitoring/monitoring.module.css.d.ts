declare const classes: {
  readonly table: string;
  readonly cards: string;
  readonly cardValue: string;
  readonly cardTitle: string;
  readonly nowrap: string;
  readonly openRow: string;
  readonly detailsRow: string;
  readonly detail: string;
};
export default classes;
