import type { Project } from '../../../../shared/schemas/projects';
import { trpc } from '../../../lib/trpc';

/** A saved project replaces the cached one at once; the lists and stats that show it load again. */
export function useStoreProject() {
  const utils = trpc.useUtils();
  return (next: Project) => {
    utils.projects.get.setData({ id: next.id }, next);
    return Promise.all([utils.projects.list.invalidate(), utils.projects.dashboardStats.invalidate()]);
  };
}
