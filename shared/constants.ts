/** Business constants from the specification (section 9). */
export const PRODUCT_NAME = 'AuthPlatform';
export const PASSWORD_MIN_LENGTH = 8;
/** bcrypt only reads the first 72 bytes of a password; longer ones are refused rather than silently cut. */
export const PASSWORD_MAX_BYTES = 72;
export const ACCESS_TOKEN_COOKIE = 'access_token';
export const REFRESH_TOKEN_COOKIE = 'refresh_token';
export const DEFAULT_ACCESS_TOKEN_TTL_S = 24 * 60 * 60;
export const DEFAULT_REFRESH_TOKEN_TTL_S = 7 * 24 * 60 * 60;
export const EMAIL_VERIFICATION_TTL_S = 24 * 60 * 60;
export const PASSWORD_RESET_TTL_S = 60 * 60;
export const EMAIL_CHANGE_TTL_S = 60 * 60;
/** A step-up code mailed to an account without a password (and no other proof). */
export const STEP_UP_EMAIL_CODE_TTL_S = 15 * 60;
export const ADMIN_LIST_DEFAULT_PAGE = 1;
export const ADMIN_LIST_DEFAULT_PER_PAGE = 10;
export const ADMIN_LIST_MAX_PER_PAGE = 100;
export const VERIFY_EMAIL_REDIRECT_DELAY_MS = 3000;
export const SESSION_TIMEOUT_OPTIONS_MIN = [15, 30, 60, 120, 480] as const;
export const DEFAULT_SESSION_TIMEOUT_MIN = 30;
/** The account's session idle timeout, enforced by the server: null (none) or whole minutes in this range. */
export const SESSION_IDLE_TIMEOUT_MIN = 15;
export const SESSION_IDLE_TIMEOUT_MAX = 480;
export const TOAST_DURATION_MS = { success: 3000, error: 5000, info: 4000 } as const;
export const COPIED_HINT_MS = 2000;
export const RECENT_PROJECTS_SHOWN = 3;
export const ENVIRONMENTS = ['development', 'staging', 'production'] as const;
export const THEMES = ['light', 'dark', 'system'] as const;
export const THEME_STORAGE_KEY = 'color-theme';
export const POST_LOGIN_DEFAULT_PATH = '/dashboard';
