import * as oauth from 'oauth4webapi';
import { activeOrganizationOf, decodeJwt, userFromIdToken, type ActiveOrganization, type User } from './claims.js';
import { Emitter } from './emitter.js';
import { browserEnvironment, type AuthEnvironment, type ChannelLike } from './environment.js';
import { AuthError, type AuthErrorCode } from './errors.js';
import { sessionStore, type RefreshTokenStorage, type SessionStore } from './session-store.js';
import { asAuthError, cookieTransport, directTransport, type TokenResponse, type Transport } from './transport.js';

export type SignOutReason = 'user' | 'revoked' | 'expired';
export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export type AuthEvents = {
  signedIn: { user: User };
  signedOut: { reason: SignOutReason };
  tokenRefreshed: { expiresAt: number };
};

/** The client's state as a UI renders it; a new object on every change (useSyncExternalStore-friendly). */
export interface AuthSnapshot {
  status: AuthStatus;
  user: User | null;
  /** The organization the session is in (access token claims), if any. */
  organization: ActiveOrganization | null;
  /** The access token's claims. */
  accessClaims: Record<string, unknown> | null;
  /** Why the last session ended, until the next sign-in. */
  signOutReason: SignOutReason | null;
  /** When the access token expires (epoch ms, this machine's clock). */
  expiresAt: number | null;
  /** The last sign-in callback's failure, if it failed. */
  error: AuthError | null;
}

export interface AuthClientOptions {
  /** The project's issuer: APP_URL/projects/{project_key}. */
  issuer: string;
  /** The project key. */
  clientId: string;
  /** Default: this origin's /callback. Must be one of the project's redirect URIs. */
  redirectUri?: string;
  /** Where the end-session endpoint sends the user back to; must be registered. Default: the hosted "signed out" page. */
  postLogoutRedirectUri?: string;
  /** Default `openid email profile offline_access organizations`. */
  scope?: string;
  /** Where the refresh token lives (see RefreshTokenStorage). Default `sessionStorage`. */
  refreshToken?: RefreshTokenStorage;
  /** Refresh this long before the access token expires (at most half its lifetime). Default 60 s. */
  refreshLeewayS?: number;
  /** Delay before retry number `attempt` (1, 2, …) of a refresh that failed on the network. Default: 1 s doubling to 30 s, with jitter. */
  retryDelayMs?: (attempt: number) => number;
  /** How long a tab waits for the tab that refreshes before doing it itself. Default 10 s. */
  leaderTimeoutMs?: number;
  /** Plain-http issuers are refused except on localhost; true allows one (local development). */
  allowInsecureRequests?: boolean;
  /** Parts of the browser to replace (tests, embedded web views). */
  environment?: Partial<AuthEnvironment>;
}

export interface SignInOptions {
  /** Where to take the user after the callback (returned by handleRedirectCallback). */
  returnTo?: string;
  /** Start the session in this organization (id or slug); with prompt 'none' this switches without a page. */
  organization?: string;
  prompt?: 'none' | 'login' | 'create' | 'consent' | 'select_account';
  loginHint?: string;
  uiLocales?: string;
}

export interface SignOutOptions {
  /** Also end the hosted pages' session through the end-session endpoint (a navigation). Default true. */
  endHostedSession?: boolean;
}

/** What init() found: whether the page was a sign-in callback, and where the sign-in asked to go next. */
export interface InitResult {
  callback: boolean;
  returnTo?: string;
}

interface Session {
  accessToken: string;
  /** Epoch ms, by this machine's clock (from expires_in, so a skewed clock does not matter). */
  expiresAt: number;
  receivedAt: number;
  idToken?: string;
  refreshToken?: string;
  scope?: string;
}

interface PendingSignIn {
  state: string;
  verifier: string;
  nonce: string;
  redirectUri: string;
  returnTo?: string;
}

type Message =
  | { type: 'session'; session: Session; why: 'signedIn' | 'refreshed' | 'sync' }
  | { type: 'signedOut'; reason: SignOutReason }
  | { type: 'hello' }
  | { type: 'noSession' }
  | { type: 'refreshRequest'; force: boolean }
  | { type: 'refreshFailed'; code: AuthErrorCode; message: string }
  | { type: 'leaderGone' };

interface Waiter {
  resolve(token: string | null): void;
  reject(error: AuthError): void;
}

const DEFAULT_SCOPE = 'openid email profile offline_access organizations';
const MIN_VALIDITY_MS = 10_000;
/** Without Web Locks, how long a new tab waits for a leading tab to answer before it leads itself. */
const NO_LOCKS_HELLO_MS = 500;
const MAX_TIMER_MS = 2_147_483_647;

/** An invalid_grant's description says whether the session ran out or was ended (revoked, reused, signed out elsewhere). */
function reasonOf(error: AuthError): SignOutReason {
  return /expired/i.test(error.message) ? 'expired' : 'revoked';
}

/**
 * The browser client of one project: hosted sign-in with code + PKCE, the access token in memory,
 * and one refresh for all the tabs of an origin. The tabs elect a leader with a Web Lock (without Web
 * Locks, the first tab leads over the BroadcastChannel until it closes); only the leader refreshes, and it shares each new session over a BroadcastChannel, so two tabs never spend
 * the same refresh token. A network failure is retried with backoff and never signs the user out; only
 * the server's invalid_grant does, in every tab.
 */
export class AuthClient {
  readonly options: Readonly<AuthClientOptions>;
  private readonly env: AuthEnvironment;
  private readonly transport: Transport;
  private readonly store: SessionStore;
  private readonly events = new Emitter<AuthEvents>();
  private readonly listeners = new Set<() => void>();
  private readonly pendingKey: string;
  private snapshot: AuthSnapshot = { status: 'loading', user: null, organization: null, accessClaims: null, expiresAt: null, signOutReason: null, error: null };
  private session: Session | null = null;
  private server: Promise<oauth.AuthorizationServer> | undefined;
  private channel: ChannelLike | null = null;
  private ready: Promise<InitResult> | undefined;
  private isLeader = false;
  private readonly stop = new AbortController();
  private releaseLeadership: (() => void) | undefined;
  private inflight: Promise<Session> | null = null;
  private waiters: Waiter[] = [];
  private helloAnswer: ((session: Session | null | undefined) => void) | undefined;
  private refreshTimer: unknown;
  private retryTimer: unknown;
  private retries = 0;
  private destroyed = false;

  constructor(options: AuthClientOptions) {
    this.options = options;
    this.env = { ...browserEnvironment(), ...options.environment };
    const kind = options.refreshToken ?? 'sessionStorage';
    const insecure = options.allowInsecureRequests ?? /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/)/.test(options.issuer);
    this.transport =
      typeof kind === 'object' ? cookieTransport(kind.cookieEndpoint, { fetch: this.env.fetch }) : directTransport({ clientId: options.clientId, fetch: this.env.fetch, allowInsecureRequests: insecure });
    this.store = sessionStore(kind, this.env, `authplatform:${options.clientId}:session`);
    this.pendingKey = `authplatform:${options.clientId}:sign-in:`;
  }

  // --- Reading the state

  getSnapshot = (): AuthSnapshot => this.snapshot;

  /** Calls `listener` after every change of the snapshot; answers the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  on<Name extends keyof AuthEvents>(name: Name, listener: (payload: AuthEvents[Name]) => void): () => void {
    return this.events.on(name, listener);
  }

  /** The discovery document of the issuer (fetched once). */
  discover(): Promise<oauth.AuthorizationServer> {
    const issuer = new URL(this.options.issuer);
    const insecure = this.options.allowInsecureRequests ?? issuer.protocol === 'http:';
    return (this.server ??= oauth
      .discoveryRequest(issuer, { algorithm: 'oidc', [oauth.customFetch]: this.env.fetch, [oauth.allowInsecureRequests]: insecure })
      .then((response) => oauth.processDiscoveryResponse(issuer, response))
      .catch((error: unknown) => {
        this.server = undefined;
        throw asAuthError(error);
      }));
  }

  /** The hosted account page of the project (profile, security, organizations). */
  async accountUrl(): Promise<string> {
    return new URL('account', (await this.discover()).authorization_endpoint).href;
  }

  // --- Starting

  /**
   * Finds the session: finishes a sign-in callback in the address bar, or takes the session of the
   * open tabs, or renews the stored one. Idempotent; every other call waits for it.
   */
  init(): Promise<InitResult> {
    return (this.ready ??= this.start());
  }

  private async start(): Promise<InitResult> {
    this.channel = this.env.openChannel?.(`authplatform:${this.options.clientId}`) ?? null;
    if (this.channel) this.channel.onmessage = (event) => this.onMessage(event.data as Message);
    const leader = await this.claimLeadership(true);
    if (!leader) void this.claimLeadership(false);
    // Without Web Locks the leading tab is the one that found no other: it answers the tabs opened after it.
    let fromPeers: Session | null | undefined;
    if (this.leadsByChannel) {
      fromPeers = await this.askPeers(Math.min(NO_LOCKS_HELLO_MS, this.options.leaderTimeoutMs ?? NO_LOCKS_HELLO_MS));
      if (fromPeers === undefined) this.isLeader = true;
    }

    if (this.pendingOf(this.env.currentUrl())) {
      try {
        return { callback: true, ...(await this.finishCallback(this.env.currentUrl())) };
      } catch (error) {
        this.update({ status: this.session ? 'signedIn' : 'signedOut', error: asAuthError(error) });
        return { callback: true };
      }
    }
    // Still a follower (leadership can be granted at once when the last leader has just gone): ask the leader.
    if (!this.isLeader && this.channel) {
      if (!this.leadsByChannel) fromPeers = await this.askPeers();
      if (fromPeers !== undefined) {
        if (fromPeers) this.adopt(fromPeers, 'sync');
        else this.update({ status: 'signedOut' });
        return { callback: false };
      }
    }
    await this.restore();
    return { callback: false };
  }

  /** The leader's answer to hello: its session, none, or undefined when nobody answered in time. */
  private askPeers(timeoutMs = this.options.leaderTimeoutMs ?? 10_000): Promise<Session | null | undefined> {
    return new Promise((resolve) => {
      const timer = this.env.setTimeout(() => {
        this.helloAnswer = undefined;
        resolve(undefined);
      }, timeoutMs);
      this.helloAnswer = (session) => {
        this.env.clearTimeout(timer);
        this.helloAnswer = undefined;
        resolve(session);
      };
      this.post({ type: 'hello' });
    });
  }

  /** A stored refresh token (or the backend's cookie) renewed into a session; signed out without one. */
  private async restore(): Promise<void> {
    const stored = this.store.load();
    const cookieMode = !this.transport.holdsRefreshToken;
    if (!stored?.refreshToken && !cookieMode) {
      this.update({ status: 'signedOut' });
      return;
    }
    try {
      await this.refresh(stored?.refreshToken, stored?.idToken, { quietSignOut: cookieMode && !stored });
    } catch {
      // Signed out (invalid_grant), or retrying in the background while the status stays loading.
    }
  }

  /** No Web Locks, but a BroadcastChannel: the tabs agree over the channel (the first tab leads, see start()). */
  private get leadsByChannel(): boolean {
    return !this.env.locks && this.channel !== null;
  }

  private claimLeadership(ifAvailable: boolean): Promise<boolean> {
    const locks = this.env.locks;
    if (this.leadsByChannel) return Promise.resolve(false);
    if (!locks || !this.channel) {
      // Alone (or no way to agree): this tab refreshes for itself; the server's reuse window covers a collision.
      this.isLeader = true;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const name = `authplatform:${this.options.clientId}:leader`;
      const options = ifAvailable ? { ifAvailable: true } : { signal: this.stop.signal };
      locks
        .request(name, options, (lock) => {
          if (!lock || this.destroyed) {
            resolve(false);
            return undefined;
          }
          this.isLeader = true;
          resolve(true);
          if (!ifAvailable) this.onLeadership();
          return new Promise<void>((release) => (this.releaseLeadership = release));
        })
        .catch(() => resolve(false));
    });
  }

  /**
   * The tab that refreshed for everyone has gone: this one takes over its schedule, answers its own
   * waiting calls, and stops waiting for an answer to hello (it restores the session itself).
   */
  private onLeadership(): void {
    if (this.helloAnswer) {
      this.helloAnswer(undefined);
      return;
    }
    if (this.waiters.length) this.refresh().catch(() => undefined);
    else if (this.session) this.schedule();
  }

  // --- Sign-in

  /** Builds the authorization request and remembers its PKCE verifier, state and nonce in this tab. */
  async createSignInUrl(options: SignInOptions = {}): Promise<string> {
    const as = await this.discover();
    const storage = this.env.sessionStorage;
    if (!storage) throw new AuthError('callback_error', 'Signing in needs sessionStorage to keep the PKCE verifier across the redirect');
    const pending: PendingSignIn = {
      state: oauth.generateRandomState(),
      verifier: oauth.generateRandomCodeVerifier(),
      nonce: oauth.generateRandomNonce(),
      redirectUri: this.redirectUri(),
      returnTo: options.returnTo,
    };
    storage.setItem(this.pendingKey + pending.state, JSON.stringify(pending));
    const url = new URL(as.authorization_endpoint!);
    const params: Record<string, string | undefined> = {
      client_id: this.options.clientId,
      response_type: 'code',
      redirect_uri: pending.redirectUri,
      scope: this.options.scope ?? DEFAULT_SCOPE,
      code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
      prompt: options.prompt,
      organization: options.organization,
      login_hint: options.loginHint,
      ui_locales: options.uiLocales,
    };
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
    return url.href;
  }

  /** Leaves for the project's hosted sign-in; the user comes back to the redirect URI. */
  async signIn(options: SignInOptions = {}): Promise<void> {
    this.env.navigate(await this.createSignInUrl(options));
  }

  /** Moves the session into another organization: a new authorization with prompt=none (no page is shown when signed in). */
  switchOrganization(organization: string, options: Omit<SignInOptions, 'organization' | 'prompt'> = {}): Promise<void> {
    return this.signIn({ ...options, organization, prompt: 'none' });
  }

  /**
   * Finishes the sign-in on the redirect URI: checks state and issuer, exchanges the code with its
   * verifier, shares the session with the other tabs, and takes the code out of the address bar.
   * init() does it by itself when the page is a callback.
   */
  async handleRedirectCallback(url = this.env.currentUrl()): Promise<{ returnTo?: string }> {
    await this.init();
    return this.finishCallback(url);
  }

  private pendingOf(url: string): PendingSignIn | null {
    let state: string | null;
    try {
      const parsed = new URL(url);
      state = parsed.searchParams.get('state');
      if (!state || !(parsed.searchParams.has('code') || parsed.searchParams.has('error'))) return null;
    } catch {
      return null;
    }
    const raw = this.env.sessionStorage?.getItem(this.pendingKey + state);
    return raw ? (JSON.parse(raw) as PendingSignIn) : null;
  }

  private async finishCallback(url: string): Promise<{ returnTo?: string }> {
    const pending = this.pendingOf(url);
    if (!pending) throw new AuthError('callback_error', 'This browser did not start this sign-in');
    this.env.sessionStorage?.removeItem(this.pendingKey + pending.state);
    const current = new URL(url);
    const clean = new URL(current);
    for (const name of ['code', 'state', 'iss', 'error', 'error_description', 'session_state']) clean.searchParams.delete(name);
    this.env.replaceUrl(clean.href);
    const as = await this.discover();
    let tokens: TokenResponse;
    try {
      const params = oauth.validateAuthResponse(as, { client_id: this.options.clientId }, current, pending.state);
      tokens = await this.transport.exchangeCode(as, params, pending.redirectUri, pending.verifier, pending.nonce);
    } catch (error) {
      const failure = asAuthError(error);
      throw failure.oauthError === 'login_required' ? new AuthError('login_required', failure.message, failure.oauthError) : failure;
    }
    const previous = this.session;
    const session = this.sessionOf(tokens);
    this.adopt(session, 'signedIn');
    this.post({ type: 'session', session, why: 'signedIn' });
    // A sign-in over a live session (switching organization) leaves the old one behind: end it at the server.
    if (previous?.refreshToken && previous.refreshToken !== session.refreshToken) void this.transport.revoke(as, previous.refreshToken).catch(() => undefined);
    return { returnTo: pending.returnTo };
  }

  // --- Tokens

  /**
   * An access token that is valid for at least 10 more seconds, refreshed (once for all tabs) if
   * needed; null when signed out. Throws AuthError `network_error`/`server_error` when it could not be
   * renewed just now: the user stays signed in and the client keeps retrying.
   */
  async getAccessToken(options: { forceRefresh?: boolean } = {}): Promise<string | null> {
    await this.init();
    const session = this.session;
    if (!session) return null;
    if (!options.forceRefresh && session.expiresAt - this.env.now() > MIN_VALIDITY_MS) return session.accessToken;
    if (!this.isLeader) return this.askLeaderToRefresh(options.forceRefresh ?? false);
    try {
      return (await this.refresh()).accessToken;
    } catch (error) {
      if (error instanceof AuthError && error.code === 'invalid_grant') return null;
      throw error;
    }
  }

  private askLeaderToRefresh(force: boolean): Promise<string | null> {
    return new Promise((resolve, reject) => {
      const timer = this.env.setTimeout(() => {
        // No answer from the leading tab (frozen, or closing): refresh here; the reuse window covers a race.
        this.waiters = this.waiters.filter((waiter) => waiter !== entry);
        this.refresh().then(
          (session) => resolve(session.accessToken),
          (error: AuthError) => (error.code === 'invalid_grant' ? resolve(null) : reject(error)),
        );
      }, this.options.leaderTimeoutMs ?? 10_000);
      const entry: Waiter = {
        resolve: (token) => {
          this.env.clearTimeout(timer);
          resolve(token);
        },
        reject: (error) => {
          this.env.clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.push(entry);
      this.post({ type: 'refreshRequest', force });
    });
  }

  /** Renews the session now (deduplicated: concurrent calls share one request). */
  refresh(refreshToken?: string, idToken?: string, options: { quietSignOut?: boolean } = {}): Promise<Session> {
    if (this.inflight) return this.inflight;
    const previous = this.session;
    const token = refreshToken ?? previous?.refreshToken;
    const attempt = (async () => {
      const as = await this.discover();
      if (this.transport.holdsRefreshToken && !token) throw new AuthError('invalid_grant', 'The session has expired: there is no refresh token');
      const tokens = await this.transport.refresh(as, token);
      const session = this.sessionOf(tokens, { idToken: idToken ?? previous?.idToken, refreshToken: token });
      this.retries = 0;
      this.adopt(session, previous || idToken ? 'refreshed' : 'signedIn');
      this.post({ type: 'session', session, why: 'refreshed' });
      return session;
    })();
    this.inflight = attempt
      .catch((error: unknown) => {
        const failure = asAuthError(error);
        if (failure.code === 'invalid_grant') {
          this.endSession(reasonOf(failure), !options.quietSignOut, options.quietSignOut);
        } else {
          this.post({ type: 'refreshFailed', code: failure.code, message: failure.message });
          this.retryLater(token, idToken);
        }
        throw failure;
      })
      .finally(() => {
        this.inflight = null;
      });
    return this.inflight;
  }

  private retryLater(refreshToken: string | undefined, idToken: string | undefined): void {
    if (this.destroyed) return;
    this.retries += 1;
    const delay = this.options.retryDelayMs?.(this.retries) ?? Math.min(30_000, 1000 * 2 ** (this.retries - 1)) * (0.75 + Math.random() / 2);
    this.env.clearTimeout(this.retryTimer);
    this.retryTimer = this.env.setTimeout(() => {
      // The session may have moved on meanwhile (another tab, a sign-out): retry only what is still ours.
      const current = this.session?.refreshToken ?? refreshToken;
      if (this.snapshot.status === 'signedOut') return;
      this.refresh(current, this.session?.idToken ?? idToken).catch(() => undefined);
    }, delay);
  }

  private sessionOf(tokens: TokenResponse, previous: { idToken?: string; refreshToken?: string } = {}): Session {
    const now = this.env.now();
    return {
      accessToken: tokens.accessToken,
      expiresAt: now + tokens.expiresIn * 1000,
      receivedAt: now,
      idToken: tokens.idToken ?? previous.idToken,
      // The server rotates on every refresh; keep the old one only if an answer ever lacks one.
      refreshToken: this.transport.holdsRefreshToken ? (tokens.refreshToken ?? previous.refreshToken) : undefined,
      scope: tokens.scope,
    };
  }

  // --- Sign-out

  /**
   * Signs out in every tab at once, ends the session at the server (revocation), and by default
   * leaves for the end-session endpoint so the hosted pages' session ends too.
   */
  async signOut(options: SignOutOptions = {}): Promise<void> {
    await this.init();
    const session = this.session;
    this.endSession('user', true);
    const as = await this.discover().catch(() => null);
    if (!as) return;
    await this.transport.revoke(as, session?.refreshToken ?? session?.accessToken).catch(() => undefined);
    if ((options.endHostedSession ?? true) && as.end_session_endpoint) {
      const url = new URL(as.end_session_endpoint);
      url.searchParams.set('client_id', this.options.clientId);
      if (session?.idToken) url.searchParams.set('id_token_hint', session.idToken);
      if (this.options.postLogoutRedirectUri) url.searchParams.set('post_logout_redirect_uri', this.options.postLogoutRedirectUri);
      this.env.navigate(url.href);
    }
  }

  private endSession(reason: SignOutReason, broadcast: boolean, quiet = false): void {
    this.env.clearTimeout(this.refreshTimer);
    this.env.clearTimeout(this.retryTimer);
    const wasSignedIn = this.session !== null || this.snapshot.status === 'signedIn';
    this.session = null;
    this.store.clear();
    this.update({ status: 'signedOut', user: null, organization: null, accessClaims: null, expiresAt: null, signOutReason: quiet ? null : reason });
    for (const waiter of this.waiters.splice(0)) waiter.resolve(null);
    if (broadcast) this.post({ type: 'signedOut', reason });
    if (wasSignedIn && !quiet) this.events.emit('signedOut', { reason });
  }

  // --- Sharing between tabs

  private adopt(session: Session, why: 'signedIn' | 'refreshed' | 'sync'): void {
    const wasSignedIn = this.snapshot.status === 'signedIn';
    this.session = session;
    this.store.save({ refreshToken: session.refreshToken, idToken: session.idToken });
    const user = userFromIdToken(session.idToken, session.accessToken);
    const accessClaims = decodeJwt(session.accessToken);
    this.update({ status: 'signedIn', user, accessClaims, expiresAt: session.expiresAt, organization: activeOrganizationOf(accessClaims), signOutReason: null, error: null });
    if (!wasSignedIn) this.events.emit('signedIn', { user });
    else if (why === 'refreshed') this.events.emit('tokenRefreshed', { expiresAt: session.expiresAt });
    for (const waiter of this.waiters.splice(0)) waiter.resolve(session.accessToken);
    if (this.isLeader) this.schedule();
  }

  private onMessage(message: Message): void {
    if (this.destroyed || !message || typeof message !== 'object') return;
    switch (message.type) {
      case 'session':
        if (this.helloAnswer) this.helloAnswer(message.session);
        else this.adopt(message.session, message.why);
        return;
      case 'noSession':
        this.helloAnswer?.(null);
        return;
      case 'signedOut':
        this.endSession(message.reason, false);
        return;
      case 'refreshFailed':
        for (const waiter of this.waiters.splice(0)) waiter.reject(new AuthError(message.code, message.message));
        return;
      case 'hello':
        if (this.isLeader) void this.init().then(() => this.post(this.session ? { type: 'session', session: this.session, why: 'sync' } : { type: 'noSession' }));
        return;
      case 'leaderGone':
        // Without Web Locks, the leading tab says when it closes; the tabs left lead (with two tabs, exactly one).
        if (this.leadsByChannel && !this.isLeader) {
          this.isLeader = true;
          this.onLeadership();
        }
        return;
      case 'refreshRequest':
        if (!this.isLeader || !this.ready) return;
        void this.ready.then(() => {
          const session = this.session;
          if (!session) this.post({ type: 'signedOut', reason: this.snapshot.signOutReason ?? 'expired' });
          else if (!message.force && !this.due(session) && !this.inflight) this.post({ type: 'session', session, why: 'sync' });
          else this.refresh().catch(() => undefined);
        });
        return;
    }
  }

  private post(message: Message): void {
    this.channel?.postMessage(message);
  }

  private leewayMs(session: Session): number {
    return Math.min((this.options.refreshLeewayS ?? 60) * 1000, (session.expiresAt - session.receivedAt) / 2);
  }

  private due(session: Session): boolean {
    return session.expiresAt - this.leewayMs(session) <= this.env.now();
  }

  /** The leader's timer: refresh before expiry; without a refresh token, the session simply ends at expiry. */
  private schedule(): void {
    const session = this.session;
    this.env.clearTimeout(this.refreshTimer);
    if (!session || this.destroyed) return;
    const now = this.env.now();
    if (this.transport.holdsRefreshToken && !session.refreshToken) {
      this.refreshTimer = this.env.setTimeout(() => this.endSession('expired', true), Math.min(MAX_TIMER_MS, Math.max(0, session.expiresAt - now)));
      return;
    }
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, session.expiresAt - this.leewayMs(session) - now));
    this.refreshTimer = this.env.setTimeout(() => {
      if (this.session === session) this.refresh().catch(() => undefined);
    }, delay);
  }

  private update(changes: Partial<AuthSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...changes };
    for (const listener of [...this.listeners]) listener();
  }

  private redirectUri(): string {
    return this.options.redirectUri ?? new URL('/callback', this.env.currentUrl()).href;
  }

  /** Stops timers, leaves the channel and hands leadership to another tab. */
  destroy(): void {
    this.destroyed = true;
    this.env.clearTimeout(this.refreshTimer);
    this.env.clearTimeout(this.retryTimer);
    this.stop.abort();
    this.releaseLeadership?.();
    if (this.leadsByChannel && this.isLeader) this.post({ type: 'leaderGone' });
    this.channel?.close();
    this.channel = null;
  }
}

export function createAuthClient(options: AuthClientOptions): AuthClient {
  return new AuthClient(options);
}
