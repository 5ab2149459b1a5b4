import {
  DEFAULT_SIGN_IN_METHODS,
  SIGN_IN_METHOD_DISABLED,
  SIGN_IN_METHODS,
  type SignInMethod,
  type SignInMethods,
} from '../../../shared/schemas/project-settings.js';
import { AppError } from '../../errors.js';
import type { Realm } from './realm.js';

/**
 * A project's choice of first factors, as stored (project_settings.sign_in_methods, JSON): only what it
 * chose. A built-in method left out has its default (DEFAULT_SIGN_IN_METHODS: what every project had
 * before it could choose); a connection left out is on, so a connection added later (social, or an
 * enterprise one as "sso:<id>") is offered until the project turns it off here.
 */
export interface StoredSignInMethods {
  methods: Readonly<Partial<Record<SignInMethod, boolean>>>;
  connections: Readonly<Record<string, boolean>>;
}

export const NO_CHOICE: StoredSignInMethods = Object.freeze({ methods: Object.freeze({}), connections: Object.freeze({}) });

/** A broken value reads as no choice (today's behaviour) rather than locking everyone out. */
export function parseSignInMethods(json: string | null | undefined): StoredSignInMethods {
  if (!json) return NO_CHOICE;
  try {
    const value = JSON.parse(json) as { methods?: unknown; connections?: unknown };
    const record = (candidate: unknown) =>
      Object.fromEntries(Object.entries(typeof candidate === 'object' && candidate !== null ? candidate : {}).filter(([, on]) => typeof on === 'boolean')) as Record<string, boolean>;
    const methods = record(value.methods);
    return { methods: Object.fromEntries(SIGN_IN_METHODS.filter((name) => name in methods).map((name) => [name, methods[name]!])), connections: record(value.connections) };
  } catch {
    return NO_CHOICE;
  }
}

export function methodEnabled(stored: StoredSignInMethods, method: SignInMethod): boolean {
  return stored.methods[method] ?? DEFAULT_SIGN_IN_METHODS[method];
}

export function connectionEnabled(stored: StoredSignInMethods, connectionId: string): boolean {
  return stored.connections[connectionId] ?? true;
}

/** Every method as it applies now, with each of the project's configured connections (by id). */
export function effectiveSignInMethods(stored: StoredSignInMethods, configuredConnections: readonly string[]): SignInMethods {
  const builtIn = Object.fromEntries(SIGN_IN_METHODS.map((method) => [method, methodEnabled(stored, method)])) as Record<SignInMethod, boolean>;
  return { ...builtIn, connections: Object.fromEntries(configuredConnections.map((id) => [id, connectionEnabled(stored, id)])) };
}

/** 403 for a first factor the realm turned off. */
export function requireSignInMethod(realm: Pick<Realm, 'policy'>, method: SignInMethod): void {
  if (!methodEnabled(realm.policy.signInMethods, method)) throw new AppError('FORBIDDEN', SIGN_IN_METHOD_DISABLED);
}

/** 403 for a connection the realm turned off as a way to sign in. */
export function requireConnectionEnabled(realm: Pick<Realm, 'policy'>, connectionId: string): void {
  if (!connectionEnabled(realm.policy.signInMethods, connectionId)) throw new AppError('FORBIDDEN', SIGN_IN_METHOD_DISABLED);
}
