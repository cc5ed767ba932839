/**
 * Every Astro Action of the site. (Staff branch: only the staff actions; the lead merges this with
 * the public ones — `incidents` then holds `create`, `track` and `setState`.)
 */
import { staffActions } from './staff.ts';

export const server = {
  incidents: { ...staffActions.incidents },
  clients: { ...staffActions.clients },
};
