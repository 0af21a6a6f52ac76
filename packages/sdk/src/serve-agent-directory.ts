import type { AgentDirectory } from '@a3s-lab/code-config';
import type { SessionOptions, SessionStore } from '@a3s-lab/code-core';
import { serveDirectoryOnFleet } from './agent-dir-fleet.js';
import { AgentDirHandle, systemClock } from './agent-dir-server.js';
import type { ServeAgentDirOptions } from './agent-options.js';
import { equipFromDirectory } from './equip-from-directory.js';
import { directorySkills } from './load-skills.js';
import type { Session } from './session.js';

/** What serving needs of the agent the directory runs as (its `agent.acl` merged in). */
export interface DirectoryServingAgent {
  readonly sessionStore: SessionStore;
  sessionAsync(workspace: string, options?: SessionOptions): Promise<Session>;
  resumeSessionAsync(sessionId: string, options?: SessionOptions): Promise<Session>;
}

/**
 * Serves `directory`'s enabled schedules on `workspace` with `agent`: one durable session per
 * schedule (id `schedule:<name>`, resumed from the agent's store when it is there), equipped
 * with the directory's tools; fired by this host, or registered with `options.fleet` (whose
 * workers open the sessions per run, so they are closed here once in the store).
 */
export async function serveAgentDirectory(agent: DirectoryServingAgent, directory: AgentDirectory, workspace: string, options: ServeAgentDirOptions): Promise<AgentDirHandle> {
  const sessions = new Map<string, Session>();
  try {
    for (const schedule of directory.schedules.filter((s) => s.enabled)) {
      const sessionId = `schedule:${schedule.name}`;
      const extra = options.sessionOptions ?? {};
      const skills = { inlineSkills: [...(extra.inlineSkills ?? []), ...directorySkills(directory)] };
      const base: SessionOptions = { sessionId, sessionStore: agent.sessionStore, autoSave: true, instructions: directory.instructions, ...extra, ...skills };
      const saved = await agent.sessionStore.load(sessionId);
      const session = saved === null ? await agent.sessionAsync(workspace, base) : await agent.resumeSessionAsync(sessionId, { sessionStore: agent.sessionStore, ...extra, ...skills });
      await equipFromDirectory(session, directory);
      sessions.set(schedule.name, session);
    }
  } catch (error) {
    await Promise.all([...sessions.values()].map((s) => s.closeAsync()));
    throw error;
  }
  const fleet = options.fleet;
  if (fleet === undefined) return new AgentDirHandle(directory, sessions, options.clock ?? systemClock, options.onFire);
  // The sessions exist in the fleet's store now; the fleet's workers open them per run.
  await Promise.all([...sessions.values()].map((s) => s.closeAsync()));
  const handle = new AgentDirHandle(directory, new Map(), options.clock ?? systemClock, options.onFire, true);
  await serveDirectoryOnFleet(directory, fleet, handle, options.clock);
  return handle;
}
