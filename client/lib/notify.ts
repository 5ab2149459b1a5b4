import { notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS } from '../../shared/constants';

/** The close button's name for screen readers (Mantine's has none). */
const CLOSE = { 'aria-label': 'Dismiss' };

/** Toasts with the durations of the specification (success 3 s, error 5 s, others 4 s); shown top right. */
export const notify = {
  success(message: string) {
    notifications.show({ message, color: 'teal', autoClose: TOAST_DURATION_MS.success, withBorder: true, closeButtonProps: CLOSE });
  },
  /** `id`: one toast per id; a later one replaces it, and `dismiss(id)` takes it away (a failure the next try made moot). */
  error(message: string, options: { id?: string } = {}) {
    if (options.id) notifications.hide(options.id);
    notifications.show({ id: options.id, message, color: 'red', autoClose: TOAST_DURATION_MS.error, withBorder: true, closeButtonProps: CLOSE });
  },
  dismiss(id: string) {
    notifications.hide(id);
  },
  info(message: string) {
    notifications.show({ message, color: 'blue', autoClose: TOAST_DURATION_MS.info, withBorder: true, closeButtonProps: CLOSE });
  },
};
