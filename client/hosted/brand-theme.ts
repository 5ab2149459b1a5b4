import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';

const HEX = /^#([0-9a-f]{6})$/i;

function channels(hex: string): [number, number, number] {
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

/**
 * The hosted pages' theme: the platform's, with the project's accent colour as the primary colour when
 * it has one. autoContrast keeps button text readable on a light accent (yellow, lime).
 */
export function brandTheme(accent: string | null): MantineThemeOverride {
  if (!accent || !HEX.test(accent)) return createTheme({});
  // The accent itself on buttons in the light scheme (shade 6), as the developer chose it, not the platform's darker shade.
  return createTheme({ colors: { brand: brandPalette(accent) }, primaryColor: 'brand', primaryShade: { light: 6, dark: 5 }, autoContrast: true });
}
