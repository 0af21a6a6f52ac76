import { describe, expect, it } from 'vitest';
import { FakeLlm, makeSession, textTurn } from '../../test/session-kit.js';
import { FeatureSet } from './session-feature.js';
import type { SessionFeature } from './session-feature.js';

describe('FeatureSet', () => {
  const labels: SessionFeature = { name: 'labels', capture: () => ({ labels: { team: 'core' } }) };
  const plan: SessionFeature = { name: 'plan', services: { plan: 'board' }, promptSection: () => '# Plan\n1. read', capture: () => ({ plan: [] }), withdrawnTools: ['update_plan'] };
  const quiet: SessionFeature = { name: 'quiet', promptSection: () => '', services: { generation: 'g' }, hooks: [{ event: 'session_end', handler: () => ({ action: 'continue' }) }] };

  it('unions the declarations in registration order', () => {
    const set = new FeatureSet([labels, plan, quiet]);
    expect(set.prompt('base')).toBe('base\n\n# Plan\n1. read');
    expect(set.services()).toEqual({ plan: 'board', generation: 'g' });
    expect(set.withdrawnTools()).toEqual(['update_plan']);
    expect(set.hooks().map((h) => h.id)).toEqual(['feature:quiet:session_end:0']);
    // Slices no feature fills are empty, so a snapshot always has every field.
    expect(set.capture()).toEqual({ labels: { team: 'core' }, plan: [], verificationReports: [], subagentTasks: [], dynamicWorkflow: false });
  });

  it('refuses a feature registered twice', () => {
    expect(() => new FeatureSet([labels, labels])).toThrow(/registered twice/);
  });
});

describe('a session composed of features', () => {
  it("its snapshot is the union of the features' slices, and restores into a fresh session", async () => {
    const { session } = makeSession(new FakeLlm([textTurn('ok')]), []);
    session.features.labels.set('ticket', 'A-1');
    await session.features.verification.record([{ schema: 'a3s.verification_report.v1', subject: 's', status: 'passed', checks: [] }]);
    await session.send('hi');
    const snapshot = session.snapshot();
    expect(snapshot.labels).toEqual({ ticket: 'A-1' });
    expect(snapshot.verificationReports).toHaveLength(1);
    expect(snapshot.plan).toEqual([]);
    const { session: fresh } = makeSession(new FakeLlm([]), []);
    fresh.restoreState(snapshot);
    expect(fresh.features.labels.all()).toEqual({ ticket: 'A-1' });
    expect(fresh.features.verification.reports()).toHaveLength(1);
    expect(fresh.history()).toHaveLength(2);
  });
});
