import type { en } from './locales/en.js';

/** The namespaces of a catalogue: the hosted pages and the mails a project's end users get. */
export type Namespace = keyof typeof en;
export type HostedKey = keyof (typeof en)['hosted'];
export type MailKey = keyof (typeof en)['mail'];

/** A full catalogue: exactly English's keys in each namespace (the compiler refuses a missing or extra key). */
export type Catalogue = { [N in Namespace]: { [K in keyof (typeof en)[N]]: string } };

/** A catalogue being added (a test's, or a language on its way): what it lacks falls back to English. */
export type PartialCatalogue = { [N in Namespace]?: Partial<Catalogue[N]> };
