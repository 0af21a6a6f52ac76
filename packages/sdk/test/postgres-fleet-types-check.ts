// Compile-time check (tsc over test/, no test of its own): the SDK's mirror of the fleet types
// (src/postgres-fleet-types.ts, so that the SDK's typings need no @a3s-lab/code-postgres) is what
// @a3s-lab/code-postgres really offers. A change on either side that breaks the mirror fails the
// typecheck here.
import type { createFleet as pgCreateFleet, Fleet, FleetPendingConfirmation as PgPendingConfirmation, FleetRun as PgFleetRun, FleetScheduleOccurrence as PgScheduleOccurrence, FleetWorkHandle as PgWorkHandle, ReconcileDecision as PgReconcileDecision } from '@a3s-lab/code-postgres';
import type { FleetPendingConfirmation, FleetRun, FleetScheduleOccurrence, FleetWorkHandle, PostgresFleet, PostgresFleetOptions, ReconcileDecision } from '../src/postgres-fleet-types.js';

type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** A Fleet is a PostgresFleet: everything the SDK calls on one is there, with these types. */
export type FleetIsPostgresFleet = Assert<Fleet extends PostgresFleet ? true : false>;
/** What the SDK passes createFleet is what it takes. */
export type OptionsAreAccepted = Assert<PostgresFleetOptions extends Parameters<typeof pgCreateFleet>[0] ? true : false>;
/** The plain data types are the same both ways. */
export type SameRun = Assert<Same<FleetRun, PgFleetRun>>;
export type SamePendingConfirmation = Assert<Same<FleetPendingConfirmation, PgPendingConfirmation>>;
export type SameScheduleOccurrence = Assert<Same<FleetScheduleOccurrence, PgScheduleOccurrence>>;
export type SameWorkHandle = Assert<Same<FleetWorkHandle, PgWorkHandle>>;
export type SameReconcileDecision = Assert<Same<ReconcileDecision, PgReconcileDecision>>;
