import { describe, expect, it } from 'vitest';
import { FakeLlm, deferred, makeSession, probeTool, textTurn, toolTurn, until } from '../../test/session-kit.js';
import { CodeError, MemoryRunJournal } from '@a3s-lab/code-core';
import type { ToolStartOptions } from '@a3s-lab/code-core';

const rejection = async (promise: Promise<unknown>): Promise<CodeError> => {
  try {
    await promise;
  } catch (error) {
    if (CodeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
};

describe('run journal seam', () => {
  it('records every step and replays a finished run without asking the model or running a tool again', async () => {
    const journal = new MemoryRunJournal('run-1');
    const echo = probeTool('echo');
    const first = makeSession(new FakeLlm([toolTurn([{ id: 'c1', name: 'echo', input: { text: 'a' } }]), textTurn('done')]), [echo]);
    const result = await first.session.send({ prompt: 'go', journal });
    expect(result.text).toBe('done');
    expect(journal.steps().map((s) => `${s.kind}:${s.key}`)).toEqual(['model:model-run-1-1', 'tool_start:tool-c1', 'tool_outcome:tool-c1', 'model:model-run-1-2']);

    // Another "process": a fresh session with an empty script; everything comes from the journal.
    const replayLlm = new FakeLlm([]);
    const second = makeSession(replayLlm, [echo]);
    const replayed = await second.session.send({ prompt: 'go', journal });
    expect(replayed.text).toBe('done');
    expect(replayLlm.requests).toHaveLength(0);
    expect(echo.calls).toEqual(['a']);
    expect(second.events.filter((e) => e.type === 'tool_end').map((e) => e.payload['output'])).toEqual(['echo:a']);
    expect(journal.steps()).toHaveLength(4);
  });

  it('tells the journal which starts are idempotent (a journal may write those with the outcome); a non-idempotent start is plain', async () => {
    const journal = new MemoryRunJournal('run-idem');
    const starts: [string, boolean][] = [];
    const record = journal.recordToolStart.bind(journal);
    journal.recordToolStart = (key: string, _call?: unknown, options?: ToolStartOptions) => (starts.push([key, options?.idempotent === true]), record(key));
    const look = probeTool('look', { readOnly: true });
    const echo = probeTool('echo');
    const { session } = makeSession(new FakeLlm([toolTurn([{ id: 'r1', name: 'look', input: { text: 'a' } }]), toolTurn([{ id: 'e1', name: 'echo', input: { text: 'b' } }]), textTurn('done')]), [look, echo]);
    await session.send({ prompt: 'go', journal });
    expect(starts).toEqual([['tool-r1', true], ['tool-e1', false]]);
  });

  it('resumes from the last step: recorded turns are served, the rest runs live', async () => {
    const journal = new MemoryRunJournal('run-2');
    const echo = probeTool('echo');
    const release = deferred();
    // Attempt 1 stops (its session closes, as a dying process would) while the model streams turn 2.
    const first = makeSession(
      new FakeLlm([
        toolTurn([{ id: 'c1', name: 'echo', input: { text: 'a' } }]),
        async function* () {
          yield { type: 'attempt_start', attempt: 1 } as const;
          yield { type: 'text_delta', text: 'partial' } as const;
          await release.promise;
        },
      ]),
      [echo],
    );
    const dying = first.session.send({ prompt: 'go', journal }).catch((e: unknown) => e);
    await until(() => first.events.some((e) => e.type === 'text_delta'));
    const closing = first.session.close();
    release.resolve();
    await closing;
    await dying;
    const resumedLlm = new FakeLlm([textTurn('finished')]);
    const second = makeSession(resumedLlm, [echo]);
    const result = await second.session.send({ prompt: 'go', journal });
    expect(result.text).toBe('finished');
    expect(resumedLlm.requests).toHaveLength(1);
    expect(echo.calls).toEqual(['a']);
    // The resumed request carries the replayed turn and the recorded tool result.
    expect(JSON.stringify(resumedLlm.requests[0]?.messages)).toContain('echo:a');
  });

  it('a started non-idempotent call without an outcome stops the run for reconciliation; an idempotent one runs again', async () => {
    for (const readOnly of [false, true]) {
      const journal = new MemoryRunJournal(`run-3-${readOnly}`);
      const started = deferred();
      const hang = probeTool('hang', { readOnly, run: (_text, signal) => { started.resolve(); return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ output: 'aborted', exitCode: 1 }))); } });
      const first = makeSession(new FakeLlm([toolTurn([{ id: 'h1', name: 'hang', input: { text: 'x' } }])]), [hang]);
      const dying = first.session.send({ prompt: 'go', journal }).catch((e: unknown) => e);
      await started.promise;
      await first.session.close();
      await dying;
      expect(journal.steps().map((s) => s.kind)).toEqual(['model', 'tool_start']);

      const echoLike = probeTool('hang', { readOnly });
      const second = makeSession(new FakeLlm([textTurn('after')]), [echoLike]);
      if (!readOnly) {
        const error = await rejection(second.session.send({ prompt: 'go', journal }));
        expect(error.code).toBe('SESSION_ERROR');
        expect(error.details).toMatchObject({ needs_reconciliation: true, tool_id: 'h1', tool_name: 'hang' });
        expect(echoLike.calls).toEqual([]);
        expect(second.events.at(-1)).toMatchObject({ type: 'error', payload: { details: { needs_reconciliation: true, tool_id: 'h1' } } });
        // The host records the outcome it observed: the run goes on without executing the call.
        journal.reconcile('tool-h1', { output: 'done by hand', exitCode: 0 });
        const third = makeSession(new FakeLlm([textTurn('reconciled')]), [echoLike]);
        expect((await third.session.send({ prompt: 'go', journal })).text).toBe('reconciled');
        expect(echoLike.calls).toEqual([]);
        expect(third.events.find((e) => e.type === 'tool_end')?.payload['output']).toBe('done by hand');
      } else {
        expect((await second.session.send({ prompt: 'go', journal })).text).toBe('after');
        expect(echoLike.calls).toEqual(['x']);
      }
    }
  });

  it("a tool's own `resumable` capability (cursor-resumable) never makes a started non-idempotent call run again", async () => {
    const journal = new MemoryRunJournal('run-3-resumable');
    const started = deferred();
    const hanging = probeTool('pager', { run: (_text, signal) => { started.resolve(); return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ output: 'aborted', exitCode: 1 }))); } });
    const first = makeSession(new FakeLlm([toolTurn([{ id: 'p1', name: 'pager', input: { text: 'x' } }])]), [{ ...hanging, capabilities: () => ({ resumable: true, supportsPagination: true }) }]);
    const dying = first.session.send({ prompt: 'go', journal }).catch((e: unknown) => e);
    await started.promise;
    await first.session.close();
    await dying;
    const again = probeTool('pager');
    const second = makeSession(new FakeLlm([textTurn('after')]), [{ ...again, capabilities: () => ({ resumable: true, supportsPagination: true }) }]);
    const error = await rejection(second.session.send({ prompt: 'go', journal }));
    expect(error.details).toMatchObject({ needs_reconciliation: true, tool_id: 'p1', tool_name: 'pager' });
    expect(again.calls).toEqual([]);
  });

  it('reconcile retry executes the call once more', async () => {
    const journal = new MemoryRunJournal('run-4');
    await journal.recordModelResponse('model-run-4-1', toolTurn([{ id: 'r1', name: 'echo', input: { text: 'again' } }]).slice(1));
    await journal.recordToolStart('tool-r1');
    journal.reconcile('tool-r1', { retry: true });
    const echo = probeTool('echo');
    const { session } = makeSession(new FakeLlm([textTurn('ok')]), [echo]);
    expect((await session.send({ prompt: 'go', journal })).text).toBe('ok');
    expect(echo.calls).toEqual(['again']);
    expect(await journal.toolCall('tool-r1')).toMatchObject({ outcome: { output: 'echo:again' } });
  });

  it('confirmations are durable: the request is recorded, an answer given elsewhere is applied on resume', async () => {
    const journal = new MemoryRunJournal('run-5');
    const echo = probeTool('echo');
    const first = makeSession(new FakeLlm([toolTurn([{ id: 'q1', name: 'echo', input: { text: 'a' } }])]), [echo], { permissionPolicy: { ask: ['echo'] } });
    const dying = first.session.send({ prompt: 'go', journal }).catch((e: unknown) => e);
    await until(() => first.session.pendingConfirmations().length === 1);
    expect(journal.pendingConfirmations()).toEqual(['q1']);
    await first.session.close();
    await dying;
    // Answered from another process while nobody runs the run.
    journal.answer('q1', { approved: true, reason: 'fine' });
    const second = makeSession(new FakeLlm([textTurn('approved later')]), [echo], { permissionPolicy: { ask: ['echo'] } });
    expect((await second.session.send({ prompt: 'go', journal })).text).toBe('approved later');
    expect(echo.calls).toEqual(['a']);
    expect(second.events.some((e) => e.type === 'confirmation_required')).toBe(false);
  });

  it('compactions are journaled steps and replayed', async () => {
    const journal = new MemoryRunJournal('run-6');
    const long = 'x'.repeat(4000);
    const options = { autoCompact: true, maxContextTokens: 2000, autoCompactThreshold: 0.5 };
    const llm = new FakeLlm([textTurn('summary of the past'), textTurn('answer')]);
    const first = makeSession(llm, [], options);
    first.session.restoreState({ ...first.session.state(), history: [{ role: 'user', content: [{ type: 'text', text: long }] }, { role: 'assistant', content: [{ type: 'text', text: long }] }, { role: 'user', content: [{ type: 'text', text: long }] }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }] });
    const base = first.session.state();
    await first.session.send({ prompt: 'go', journal });
    const kinds = journal.steps().map((s) => s.key.replace(/-run-6-\d+$/, ''));
    expect(kinds).toContain('compaction');
    const replayLlm = new FakeLlm([]);
    const second = makeSession(replayLlm, [], options);
    second.session.restoreState(base);
    expect((await second.session.send({ prompt: 'go', journal })).text).toBe('answer');
    expect(replayLlm.requests).toHaveLength(0);
  });
});
