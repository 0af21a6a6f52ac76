// Public surface of @a3s-lab/code-postgres. Every export is listed by name.
export { openDatabase } from './database.js';
export type { Database, DatabaseOptions, Listener, QueryResult, Queryable } from './database.js';
export { MIGRATIONS, STORE_MIGRATIONS, migrate } from './migrations.js';
export type { Migration } from './migrations.js';
export { databaseName } from './database-name.js';
export { PostgresSessionStore } from './postgres-session-store.js';
export type { PostgresSessionEntry, PostgresSessionPage, PostgresSessionQuery, PostgresSessionStoreOptions } from './postgres-session-store.js';
export { createFleet, Fleet, FLEET_QUEUE } from './fleet/fleet.js';
export type { FleetOptions, FleetWorkHandle } from './fleet/fleet.js';
export type { FleetEventPage } from './fleet/fleet-events.js';
export type { FleetAgent, FleetPendingConfirmation, FleetRequest, FleetRun, FleetRunStatus, FleetSession, ReconcileDecision } from './fleet/fleet-types.js';
export { PgRunJournal } from './fleet/pg-run-journal.js';
export { DEFAULT_MISSED_LIMIT, MISSED_OCCURRENCE_POLICIES, SCHEDULES_SCHEMA, checkFleetSchedule, schedulesQueue, serveFleetSchedules } from './fleet/fleet-schedules.js';
export type { FleetScheduleClock, FleetScheduleOccurrence, FleetScheduleSpec, FleetSchedulesHandle, FleetSchedulesOptions, MissedOccurrencePolicy } from './fleet/fleet-schedules.js';
export { SCHEDULE_MIGRATIONS } from './fleet/fleet-schedule-migrations.js';
