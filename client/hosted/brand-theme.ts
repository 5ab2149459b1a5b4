import { createTheme, type CSSVariablesResolver, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';

const HEX = /^#([0-9a-f]{6})$/i;

type Rgb = [number, number, number];

function channels(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** `weight` of `target` mixed into `color`. */
function mix(color: [number, number, number], target: [number, number, number], weight: number): string {
  return toHex(color.map((c, i) => c + (target[i]! - c) * weight) as [number, number, number]);
}

const WHITE: [number, number, number] = [255, 255, 255];
const BLACK: [number, number, number] = [0, 0, 0];

/** Ten shades around the project's accent colour: tints 0–5, the colour itself at 6 (the light theme's primary shade), shades 7–9. */
export function brandPalette(accent: string): MantineColorsTuple {
  const base = channels(accent);
  const tints = [0.92, 0.82, 0.68, 0.52, 0.36, 0.18].map((weight) => mix(base, WHITE, weight));
  const shades = [0.14, 0.28, 0.42].map((weight) => mix(base, BLACK, weight));
  return [...tints, accent.toLowerCase(), ...shades] as unknown as MantineColorsTuple;
}

/** WCAG 2's relative luminance. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(channels(a)), luminance(channels(b))].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** Text of 4.5:1 (WCAG AA) and a little margin against rounding. */
const READABLE = 4.6;

/** `color` moved towards `target` in small steps until it reads on every one of `backgrounds`. */
function readableOn(color: string, backgrounds: string[], target: Rgb): string {
  for (let weight = 0; weight < 1; weight += 0.04) {
    const candidate = mix(channels(color), target, weight);
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= READABLE)) return candidate;
  }
  return toHex(target);
}

// The backgrounds the accent is written on: the page, cards and the shell's grey, and a light variant's tint.
const LIGHT_BACKGROUNDS = ['#ffffff', '#f1f3f5'];
const DARK_BACKGROUNDS = ['#242424', '#2e2e2e'];
const DARK_CARD: Rgb = [46, 46, 46];

/**
 * The accent as text (links, a light button's label, text in the brand colour): darkened in the light
 * scheme and lightened in the dark one just enough to read at 4.5:1, whatever colour the developer picked.
 */
export function brandTextColors(accent: string): { light: string; dark: string } {
  const base = channels(accent);
  // A light variant's tint (hovered, a little stronger): the accent at 10–12 % on white; in the dark scheme shade 4 at 15–20 % on a card.
  const darkTint = channels(mix(base, WHITE, 0.36));
  return {
    light: readableOn(accent, [...LIGHT_BACKGROUNDS, mix(WHITE, base, 0.12)], BLACK),
    dark: readableOn(accent, [...DARK_BACKGROUNDS, mix(DARK_CARD, darkTint, 0.2)], WHITE),
  };
}

/** The platform's variables, with the accent's text colours when the project has an accent. */
export function brandVariablesResolver(accent: string | null, platform: CSSVariablesResolver): CSSVariablesResolver {
  if (!accent || !HEX.test(accent)) return platform;
  const text = brandTextColors(accent);
  const asText = (color: string) => ({ '--mantine-color-anchor': color, '--mantine-color-brand-light-color': color, '--mantine-color-brand-text': color });
  return (theme) => {
    const base = platform(theme);
    return { variables: base.variables, light: { ...base.light, ...asText(text.light) }, dark: { ...base.dark, ...asText(text.dark) } };
  };
}

/**
 * The hosted pages' theme: the platform's, with the project's accent colour as the primary colour when
 * it has one. A filled button keeps the accent itself in both schemes, its label black or white,
 * whichever reads better on it (luminance 0.179 is where the two contrasts cross; Mantine's default 0.3
 * put white on mid greens at 3:1).
 */
export function brandTheme(accent: string | null): MantineThemeOverride {
  const accented = accent && HEX.test(accent) ? { colors: { brand: brandPalette(accent) }, primaryColor: 'brand', primaryShade: { light: 6, dark: 6 } as const, autoContrast: true, luminanceThreshold: 0.179 } : {};
  return createTheme({ respectReducedMotion: true, ...accented });
}
