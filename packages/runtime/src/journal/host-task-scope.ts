import type { RunJournal, SubagentTaskRequest } from '@a3s-lab/code-core';

/**
 * The scope of a host-direct task (`session.task()` / `session.tasks()`, no parent call) in the
 * journal of the run it is made during: `host_<digest>_<n>`, `digest` of the task's agent,
 * description, prompt and step limit, `n` how many identical tasks this attempt made before it.
 * An attempt that resumes the run and makes the same task again gets the same scope, so the
 * child replays what it recorded; a different task never reads another's steps.
 */
export function hostTaskScope(agent: string, task: SubagentTaskRequest, occurrence: number): string {
  return `host_${digestOf(hostTaskKey(agent, task))}_${occurrence}`;
}

/** What identifies a host-direct task across attempts. */
export function hostTaskKey(agent: string, task: SubagentTaskRequest): string {
  return JSON.stringify([agent, task.description, task.prompt, task.maxSteps ?? null]);
}

/** 64 bits (two FNV-1a 32-bit hashes of the UTF-16 code units, different offsets) as 16 hex digits. */
function digestOf(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * The scopes of a session's host-direct tasks in the journaled run they are made during, counted
 * per run (a new run, or the next attempt's session, counts from zero).
 */
export class HostTaskScopes {
  #run: string | null = null;
  readonly #seen = new Map<string, number>();

  /** The scopes of `tasks` (in request order: call it before anything awaits) in `journal`'s run. */
  take(journal: RunJournal, tasks: readonly { readonly agent: string; readonly task: SubagentTaskRequest }[]): { journal: RunJournal; scope: string }[] {
    if (this.#run !== journal.runId) {
      this.#run = journal.runId;
      this.#seen.clear();
    }
    return tasks.map(({ agent, task }) => {
      const key = hostTaskKey(agent, task);
      const occurrence = this.#seen.get(key) ?? 0;
      this.#seen.set(key, occurrence + 1);
      return { journal, scope: hostTaskScope(agent, task, occurrence) };
    });
  }
}
