import { DEFAULT_THEME, defaultVariantColorsResolver, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { brandTextColors, brandTheme, contrastRatio } from '../../client/hosted/brand-theme.js';

/**
 * Whatever accent a developer picks, the hosted pages' text in it reads at 4.5:1 (WCAG AA): links and
 * light buttons on the page, the card and the light variant's tint, in both schemes; a filled
 * button's label is black or white, whichever reads on the accent.
 */
const ACCENTS = ['#0ca678', '#38b690', '#ffeb3b', '#1a237e', '#ff0000', '#7048e8', '#000000', '#ffffff', '#808080'];

describe("a project's accent on its hosted pages", () => {
  it.each(ACCENTS)('%s: as text it reads on every background of both schemes', (accent) => {
    const { light, dark } = brandTextColors(accent);
    for (const background of ['#ffffff', '#f1f3f5', '#f8f9fa']) expect(contrastRatio(light, background), `${light} on ${background}`).toBeGreaterThanOrEqual(4.5);
    for (const background of ['#242424', '#2e2e2e']) expect(contrastRatio(dark, background), `${dark} on ${background}`).toBeGreaterThanOrEqual(4.5);
  });

  it.each(ACCENTS)('%s: a filled button labels it in black or white, whichever reads', (accent) => {
    const theme = mergeMantineTheme(DEFAULT_THEME, brandTheme(accent));
    const label = defaultVariantColorsResolver({ color: 'brand', theme, variant: 'filled' }).color;
    const text = label === 'var(--mantine-color-black)' ? '#000000' : '#ffffff';
    expect(contrastRatio(text, accent), `${text} on ${accent}`).toBeGreaterThanOrEqual(4.5);
  });

  it("reads on a light button's tint as the browser paints it (#0ca678: its shade 4 at 15 % on a dark card)", () => {
    expect(contrastRatio(brandTextColors('#0ca678').dark, '#364540')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(brandTextColors('#0ca678').light, '#e7f6f2')).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps a readable accent as it is', () => {
    expect(brandTextColors('#1a237e').light).toBe('#1a237e');
  });
});
