/**
 * Full-page navigations out of the single-page app: server routes such as the OpenID Connect endpoints
 * (/hosted/{key}/authorize/continue, /hosted/{key}/logout) and the sign-in with a provider
 * (…/auth/oauth/{provider}/authorize). An object, so tests can watch `assign`.
 */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
