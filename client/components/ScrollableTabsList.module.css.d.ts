declare const classes: {
  readonly frame: string;
  readonly list: string;
  readonly edge: string;
};
export default classes;
