import type { Migration } from '../migration.js';

/**
 * The run journal's and the fleet's migrations (versions 100 and up), applied after the store's.
 * pg-boss keeps its own schema (`pgboss`), created and migrated by pg-boss itself.
 */
export const FLEET_MIGRATIONS: readonly Migration[] = [
  {
    version: 100,
    name: 'fleet runs, steps and events',
    up: `
CREATE TABLE a3s_fleet_runs (
  run_id text COLLATE "C" PRIMARY KEY,
  session_id text COLLATE "C" NOT NULL,
  request jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled', 'needs_reconciliation')),
  attempts integer NOT NULL DEFAULT 0,
  worker_id text,
  base_snapshot text,
  cancel_requested boolean NOT NULL DEFAULT false,
  result jsonb,
  error jsonb,
  reconciliation jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- One run per session at a time: queued, running or waiting for reconciliation.
CREATE UNIQUE INDEX a3s_fleet_runs_active_session ON a3s_fleet_runs (session_id) WHERE status IN ('queued', 'running', 'needs_reconciliation');
CREATE INDEX a3s_fleet_runs_status ON a3s_fleet_runs (status);
CREATE TABLE a3s_fleet_steps (
  run_id text COLLATE "C" NOT NULL REFERENCES a3s_fleet_runs (run_id) ON DELETE CASCADE,
  step integer NOT NULL,
  key text COLLATE "C" NOT NULL,
  kind text NOT NULL,
  value jsonb NOT NULL,
  attempt integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (run_id, step)
);
CREATE INDEX a3s_fleet_steps_key ON a3s_fleet_steps (run_id, key, step);
CREATE TABLE a3s_fleet_events (
  run_id text COLLATE "C" NOT NULL REFERENCES a3s_fleet_runs (run_id) ON DELETE CASCADE,
  seq integer NOT NULL,
  event jsonb NOT NULL,
  attempt integer NOT NULL,
  PRIMARY KEY (run_id, seq)
);
`,
  },
];
