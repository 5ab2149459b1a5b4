import { STYLES } from './stylesheet.js';

/** The components' stylesheet: React 19 hoists it into <head> once, on the server too. */
export function Styles() {
  return (
    <style href="authplatform-react" precedence="low">
      {STYLES}
    </style>
  );
}
