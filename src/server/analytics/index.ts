/**
 * The face of src/server/analytics/: what other modules may use of it (docs/decisions/0020). Its work is
 * in page-views.ts (the cookie-less page-view counts), and each job's file.
 */
export * from './page-views.ts';
export { beaconHandler, countBeacon, countablePaths } from './beacon.ts';
