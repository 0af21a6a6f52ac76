import type { AgentDirectory } from '@a3s-lab/code-config';
import { CodeError } from '@a3s-lab/code-core';

import type { AgentDirHandle, ScheduleClock } from './agent-dir-server.js';
import { loadPostgres } from './load-postgres.js';
import type { PostgresFleet } from './postgres-fleet-types.js';

/**
 * What a directory served over a fleet cannot carry yet: fleet workers resume a schedule's session
 * with the fleet's own agent, so the directory's tools, skills, `agent.acl` and extra session
 * options would be missing from the runs. Refused (CONFIG_ERROR) rather than silently dropped.
 */
export function checkFleetDirectory(directory: AgentDirectory, options: { readonly sessionOptions?: unknown; readonly sessionStore?: unknown }, fleet: PostgresFleet): void {
  const refuse = (field: string, what: string): never => {
    throw new CodeError('CONFIG_ERROR', `${directory.dir}: ${what} is not carried to fleet workers yet (they resume the schedules' sessions with the fleet's agent): serve this directory without { fleet }`, { details: { field } });
  };
  if (directory.tools.length > 0) refuse('tools', 'tools/*.md');
  if (directory.skills.length > 0) refuse('skills', 'skills/*.md');
  if (directory.aclFile !== undefined) refuse('agent.acl', 'agent.acl');
  if (options.sessionOptions !== undefined) refuse('sessionOptions', 'sessionOptions');
  if (options.sessionStore !== undefined && options.sessionStore !== fleet.sessionStore) {
    throw new CodeError('CONFIG_ERROR', 'with { fleet }, the schedules live in fleet.sessionStore: leave sessionStore out', { details: { field: 'sessionStore' } });
  }
}

/** Without a fleet, only `missed: skip` is honoured (a single host does not catch up). */
export function checkLocalDirectory(directory: AgentDirectory): void {
  for (const schedule of directory.schedules) {
    if (schedule.enabled && schedule.missed !== 'skip') {
      throw new CodeError('CONFIG_ERROR', `${schedule.file}: missed: ${schedule.missed} catches up only on a fleet: serveAgentDir(dir, workspace, { fleet })`, { details: { field: 'missed', schedule: schedule.name } });
    }
  }
}

/** Registers the directory's enabled schedules with the fleet (`serveFleetSchedules`) and ties them to `handle`. */
export async function serveDirectoryOnFleet(directory: AgentDirectory, fleet: PostgresFleet, handle: AgentDirHandle, clock: ScheduleClock | undefined): Promise<void> {
  const module = await loadPostgres();
  const schedules = directory.schedules
    .filter((s) => s.enabled)
    .map((s) => ({ name: s.name, cron: s.cron, prompt: s.prompt, sessionId: `schedule:${s.name}`, missed: s.missed, ...(s.missedLimit === undefined ? {} : { missedLimit: s.missedLimit }) }));
  const serving = await module.serveFleetSchedules(fleet, {
    directory: directory.name,
    schedules,
    ...(clock === undefined ? {} : { clock }),
    onOccurrence: (o) => handle.recordFleetFire({ schedule: o.schedule, dueAtMs: o.dueAtMs, status: o.status, sessionId: o.sessionId, ...(o.runId === undefined ? {} : { runId: o.runId }), ...(o.error === undefined ? {} : { error: o.error }) }),
  });
  handle.attachFleet(serving);
}
