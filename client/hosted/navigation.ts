/** The hosted pages leave the app through the same object as the platform's (tests watch its `assign`). */
export { browser } from '../lib/navigation';
