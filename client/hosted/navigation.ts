/**
 * Full-page navigations out of the single-page app: the OpenID Connect endpoints are server routes
 * (/hosted/{key}/authorize/continue, /hosted/{key}/logout). An object, so tests can watch `assign`.
 */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
