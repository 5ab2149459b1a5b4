import {
  ColorInput,
  createTheme,
  Drawer,
  Modal,
  type CSSVariablesResolver,
  type MantineColorScheme,
  type MantineColorSchemeManager,
} from '@mantine/core';
import { THEME_STORAGE_KEY, THEMES } from '../shared/constants';

export type ThemePreference = (typeof THEMES)[number];

export const theme = createTheme({
  components: {
    // Mantine's eye-dropper button has no name for screen readers.
    ColorInput: ColorInput.extend({ defaultProps: { eyeDropperButtonProps: { 'aria-label': 'Pick a colour from the screen' } } }),
    // Nor have the close buttons of dialogs and drawers (the hosted pages' dialogs give theirs in the page's language).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
  primaryColor: 'indigo',
  // Shade 7 keeps white text on filled buttons and badges above 4.5:1 in both schemes (WCAG AA).
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  // Dialogs, menus and popovers appear without their transitions for people who ask their system for less motion.
  respectReducedMotion: true,
});

/**
 * Per colour: the filled background (white text on it at 4.6:1 or more), its hover, and the text of
 * the light variant on its tinted background in the light scheme (4.6:1 or more). Mantine's own
 * shades give 2–4.4:1 for several colours (teal, green, orange, yellow, and red's filled button); each
 * value is the palette's first shade that reaches the ratio, or shade 9 darkened until it does.
 */
const CONTRAST_COLORS: Record<string, [filled: string, filledHover: string, lightText: string]> = {
  red: ['#c92a2a', '#b12525', '#c92a2a'],
  pink: ['#d6336c', '#bc2d5f', '#c2255c'],
  grape: ['#ae3ec9', '#9937b1', '#9c36b5'],
  violet: ['#7048e8', '#633fcc', '#7048e8'],
  indigo: ['#4263eb', '#3a57cf', '#3b5bdb'],
  blue: ['#1971c2', '#1663ab', '#1864ab'],
  cyan: ['#0b7285', '#0a6475', '#0b7285'],
  teal: ['#087f5b', '#077050', '#087c59'],
  green: ['#29843c', '#247534', '#287f39'],
  lime: ['#51820b', '#47730a', '#4d7c0b'],
  yellow: ['#b35d00', '#9e5200', '#aa5800'],
  orange: ['#d0450e', '#b73d0d', '#c3410d'],
};

const filledVariables = Object.fromEntries(
  Object.entries(CONTRAST_COLORS).flatMap(([color, [filled, hover]]) => [
    [`--mantine-color-${color}-filled`, filled],
    [`--mantine-color-${color}-filled-hover`, hover],
  ]),
);
// An outline button's label is on the page itself: the light variant's text reads there too (red's shade 6 was 3.8:1).
const lightTextVariables = Object.fromEntries(
  Object.entries(CONTRAST_COLORS).flatMap(([color, [, , text]]) => [
    [`--mantine-color-${color}-light-color`, text],
    [`--mantine-color-${color}-outline`, text],
  ]),
);

/**
 * WCAG AA contrast in both schemes (checked by tests/e2e/accessibility.spec.ts): the colours above,
 * dimmed text at 4.5:1 or more on the page and card backgrounds (Mantine's gray.6 is 3.3:1 on white),
 * and brighter body text in dark mode than Mantine's default.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5f666d', ...filledVariables, ...lightTextVariables },
  dark: { '--mantine-color-text': '#e4e4e7', '--mantine-color-dimmed': '#a1a1aa', ...filledVariables },
});

/** Mantine calls the OS-following scheme 'auto'; the product (and the stored value) calls it 'system'. */
export function toPreference(scheme: MantineColorScheme): ThemePreference {
  return scheme === 'auto' ? 'system' : scheme;
}

export function toColorScheme(preference: ThemePreference): MantineColorScheme {
  return preference === 'system' ? 'auto' : preference;
}

function readPreference(value: string | null): ThemePreference | null {
  return value === 'light' || value === 'dark' || value === 'system' ? value : null;
}

/**
 * Stores the theme under 'color-theme' as light | dark | system. 'system' maps to Mantine's 'auto',
 * which follows the OS preference and its changes. Other tabs' changes are picked up via the storage event.
 */
export function colorThemeManager(key: string = THEME_STORAGE_KEY): MantineColorSchemeManager {
  let onStorage: ((event: StorageEvent) => void) | undefined;
  return {
    get: (defaultValue) => {
      try {
        const stored = readPreference(window.localStorage.getItem(key));
        return stored ? toColorScheme(stored) : defaultValue;
      } catch {
        return defaultValue;
      }
    },
    set: (value) => {
      try {
        window.localStorage.setItem(key, toPreference(value));
      } catch (error) {
        console.warn('Unable to save the colour theme', error);
      }
    },
    subscribe: (onUpdate) => {
      onStorage = (event) => {
        if (event.storageArea !== window.localStorage || event.key !== key) return;
        const stored = readPreference(event.newValue);
        if (stored) onUpdate(toColorScheme(stored));
      };
      window.addEventListener('storage', onStorage);
    },
    unsubscribe: () => {
      if (onStorage) window.removeEventListener('storage', onStorage);
    },
    clear: () => {
      try {
        window.localStorage.removeItem(key);
      } catch {
        /* storage unavailable */
      }
    },
  };
}
