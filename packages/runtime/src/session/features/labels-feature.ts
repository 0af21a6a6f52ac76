import { CodeError } from '@a3s-lab/code-core';
import type { SessionFeature } from '../session-feature.js';

/** Host labels kept in snapshots (tenant, ticket, branch...). */
export interface LabelsFeature extends SessionFeature {
  /** Sets a label; `null` removes it. SESSION_ERROR for a key outside 1-128 characters or a value over 4096. */
  set(key: string, value: string | null): void;
  /** The session's labels. */
  all(): Record<string, string>;
}

export function labelsFeature(): LabelsFeature {
  const labels = new Map<string, string>();
  return {
    name: 'labels',
    set: (key, value) => {
      if (typeof key !== 'string' || key.length === 0 || key.length > 128) throw new CodeError('SESSION_ERROR', 'label keys are 1-128 characters', { details: { field: 'key' } });
      if (value === null) labels.delete(key);
      else if (typeof value !== 'string' || value.length > 4096) throw new CodeError('SESSION_ERROR', 'label values are strings of at most 4096 characters', { details: { field: 'value' } });
      else labels.set(key, value);
    },
    all: () => Object.fromEntries(labels),
    capture: () => ({ labels: Object.fromEntries(labels) }),
    restore: (snapshot) => {
      labels.clear();
      for (const [k, v] of Object.entries(snapshot.labels)) labels.set(k, v);
    },
  };
}
