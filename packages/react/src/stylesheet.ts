/**
 * The components' only styles: every colour, radius and size is a CSS variable with a default, so an
 * app themes them from its own stylesheet (`:root { --ap-color-primary: #7048e8 }`) or per element.
 */
export const STYLES = `
.ap-root{font-family:var(--ap-font-family,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);font-size:var(--ap-font-size,14px);color:var(--ap-color-text,#1f2328);position:relative;display:inline-block}
.ap-button{font:inherit;cursor:pointer;border:1px solid transparent;border-radius:var(--ap-radius,8px);padding:var(--ap-button-padding,8px 14px);background:var(--ap-color-primary,#3b5bdb);color:var(--ap-color-primary-text,#fff);font-weight:600}
.ap-button:hover{filter:brightness(1.08)}
.ap-button:focus-visible,.ap-avatar:focus-visible,.ap-item:focus-visible{outline:2px solid var(--ap-color-focus,#4c6ef5);outline-offset:2px}
.ap-avatar{font:inherit;cursor:pointer;width:var(--ap-avatar-size,32px);height:var(--ap-avatar-size,32px);border-radius:50%;border:0;padding:0;background:var(--ap-color-primary,#3b5bdb);color:var(--ap-color-primary-text,#fff);font-weight:600;font-size:calc(var(--ap-avatar-size,32px) * .4);display:inline-flex;align-items:center;justify-content:center}
.ap-menu{position:absolute;right:0;top:calc(100% + 6px);z-index:var(--ap-z-index,1000);min-width:240px;background:var(--ap-color-background,#fff);border:1px solid var(--ap-color-border,#d0d7de);border-radius:var(--ap-radius,8px);box-shadow:var(--ap-shadow,0 8px 24px rgba(31,35,40,.15));padding:6px}
.ap-header{padding:8px 10px 10px;border-bottom:1px solid var(--ap-color-border,#d0d7de);margin-bottom:4px}
.ap-name{font-weight:600}
.ap-email,.ap-label{color:var(--ap-color-muted,#656d76);font-size:.9em;overflow-wrap:anywhere}
.ap-label{padding:8px 10px 4px;text-transform:uppercase;letter-spacing:.04em;font-size:.75em}
.ap-item{display:flex;width:100%;box-sizing:border-box;align-items:center;gap:8px;font:inherit;color:inherit;text-decoration:none;text-align:left;background:none;border:0;border-radius:calc(var(--ap-radius,8px) - 2px);padding:8px 10px;cursor:pointer}
.ap-item:hover{background:var(--ap-color-hover,#f3f4f6)}
.ap-item[aria-checked=true]{font-weight:600}
.ap-item[aria-checked=true]::after{content:"✓";margin-left:auto;color:var(--ap-color-primary,#3b5bdb)}
.ap-separator{height:1px;background:var(--ap-color-border,#d0d7de);margin:4px 0}
`;
