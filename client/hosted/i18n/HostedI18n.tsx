import { useEffect, useMemo, type ReactNode } from 'react';
import { useDirection } from '@mantine/core';
import { I18nextProvider } from 'react-i18next';
import type { PartialCatalogue } from '../../../shared/i18n/catalogue';
import { createI18n } from '../../../shared/i18n/i18n';
import type { StringOverrides } from '../../../shared/i18n/overrides';

/**
 * The hosted pages in `locale`: an i18next instance over the catalogues with the project's own strings
 * on top, `<html lang dir>`, and Mantine's direction (right-to-left for a right-to-left language).
 * Lives inside Mantine's DirectionProvider.
 */
export function HostedI18n({
  locale,
  overrides,
  extra,
  children,
}: {
  locale: string;
  /** The project's hosted strings per language ({ de: { "signIn.title": … } }). */
  overrides?: Partial<Record<string, Record<string, string>>>;
  /** Catalogues besides the built-in ones. */
  extra?: Record<string, PartialCatalogue>;
  children: ReactNode;
}) {
  const i18n = useMemo(() => createI18n(locale, { overrides: hostedOverrides(overrides), extra }), [locale, overrides, extra]);
  const dir = i18n.dir(locale);
  const { setDirection } = useDirection();
  useEffect(() => {
    document.documentElement.lang = locale;
    setDirection(dir);
  }, [locale, dir, setDirection]);
  // The platform's screens are English and left to right again once these pages are left.
  useEffect(
    () => () => {
      document.documentElement.lang = 'en';
      document.documentElement.dir = 'ltr';
    },
    [],
  );
  return <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
}

function hostedOverrides(overrides: Partial<Record<string, Record<string, string>>> | undefined): StringOverrides {
  return Object.fromEntries(
    Object.entries(overrides ?? {}).map(([locale, strings]) => [locale, Object.fromEntries(Object.entries(strings ?? {}).map(([key, text]) => [`hosted:${key}`, text]))]),
  );
}
