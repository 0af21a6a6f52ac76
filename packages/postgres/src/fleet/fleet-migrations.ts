import type { Migration } from '../migration.js';

/** The run journal's and the fleet's migrations (versions 100 and up), applied after the store's. */
export const FLEET_MIGRATIONS: readonly Migration[] = [];
