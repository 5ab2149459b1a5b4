import {
  createTheme,
  type CSSVariablesResolver,
  type MantineColorScheme,
  type MantineColorSchemeManager,
} from '@mantine/core';
import { THEME_STORAGE_KEY, THEMES } from '../shared/constants';

export type ThemePreference = (typeof THEMES)[number];

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
});

/** Brighter body text in dark mode than Mantine's default, for contrast on the dark surfaces. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {},
  dark: { '--mantine-color-text': '#e4e4e7', '--mantine-color-dimmed': '#a1a1aa' },
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
