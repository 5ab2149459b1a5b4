declare const classes: {
  readonly table: string;
  readonly cards: string;
  readonly cardValue: string;
  readonly cardTitle: string;
  readonly nowrap: string;
};
export default classes;
