import type { HookEventName, HookHandler, HookMatcher, SessionSnapshotV1, SlashCommandHandler, ToolServices } from '@a3s-lab/code-core';

/** The parts of a snapshot that belong to session features (the rest is the session's own). */
export interface FeatureSlices {
  readonly verificationReports: SessionSnapshotV1['verificationReports'];
  readonly subagentTasks: SessionSnapshotV1['subagentTasks'];
  readonly labels: SessionSnapshotV1['labels'];
  readonly plan: NonNullable<SessionSnapshotV1['plan']>;
  readonly dynamicWorkflow: boolean;
}

/** What a snapshot holds for a slice no feature of the session fills. */
export const EMPTY_FEATURE_SLICES: FeatureSlices = Object.freeze({ verificationReports: [], subagentTasks: [], labels: Object.freeze({}), plan: [], dynamicWorkflow: false });

/** A slash command a feature adds (built-in: a host cannot replace it). */
export interface FeatureCommand {
  readonly name: string;
  readonly description: string;
  readonly handler: SlashCommandHandler;
}

/** A hook a feature observes (registered as `feature:<feature>:<event>`). */
export interface FeatureHook {
  readonly event: HookEventName;
  readonly matcher?: HookMatcher;
  readonly handler: HookHandler;
}

/**
 * One thing a session can do beyond running turns (labels, verification, planning, skills,
 * subagents, slash commands, generation...), declared in one place: the session composes its
 * features (see `session-parts.ts`) and never names one. Every member is optional.
 */
export interface SessionFeature {
  /** Unique within a session; names the feature's hooks. */
  readonly name: string;
  /**
   * Tools of the session's surface this feature serves and cannot serve in this session (no
   * subagent factory for `task`...): the session leaves them out.
   */
  readonly withdrawnTools?: readonly string[];
  /**
   * Tools of this feature whose calls journal their own steps in a durable run (a subagent task's
   * child run): the kernel enters a started call of one again instead of stopping for reconciliation.
   */
  readonly selfJournalingTools?: readonly string[];
  /** Services the feature's tools use (`context.services`). */
  readonly services?: ToolServices;
  /** A section of the system prompt, asked for each request; `''` for none. */
  promptSection?(): string;
  /** Slash commands it adds. */
  readonly commands?: readonly FeatureCommand[];
  /** Hooks it observes. */
  readonly hooks?: readonly FeatureHook[];
  /** Its slice of a snapshot, captured between two writes (copies). */
  capture?(): Partial<FeatureSlices>;
  /** Restores its slice from a validated snapshot (cannot fail half-way). */
  restore?(snapshot: SessionSnapshotV1): void;
}

/** The union of the features' declarations, as the session applies them. */
export class FeatureSet {
  readonly #features: readonly SessionFeature[];

  constructor(features: readonly SessionFeature[]) {
    const names = new Set<string>();
    for (const feature of features) {
      if (names.has(feature.name)) throw new Error(`session feature '${feature.name}' is registered twice`);
      names.add(feature.name);
    }
    this.#features = features;
  }

  /** Every feature's withdrawn tools. */
  withdrawnTools(): string[] {
    return this.#features.flatMap((f) => f.withdrawnTools ?? []);
  }

  /** Every feature's self-journaling tools. */
  selfJournalingTools(): Set<string> {
    return new Set(this.#features.flatMap((f) => f.selfJournalingTools ?? []));
  }

  /** The features' services, merged in registration order. */
  services(): ToolServices {
    let services: ToolServices = {};
    for (const feature of this.#features) services = { ...services, ...feature.services };
    return services;
  }

  /** The features' prompt sections after `base`, in registration order. */
  prompt(base: string): string {
    let system = base;
    for (const feature of this.#features) {
      const section = feature.promptSection?.() ?? '';
      if (section !== '') system = `${system}\n\n${section}`;
    }
    return system;
  }

  commands(): FeatureCommand[] {
    return this.#features.flatMap((f) => f.commands ?? []);
  }

  /** Hooks with their registration ids. */
  hooks(): { readonly id: string; readonly hook: FeatureHook }[] {
    return this.#features.flatMap((f) => (f.hooks ?? []).map((hook, i) => ({ id: `feature:${f.name}:${hook.event}:${i}`, hook })));
  }

  /** The union of the features' slices (empty slices for what none fills). */
  capture(): FeatureSlices {
    let slices = EMPTY_FEATURE_SLICES;
    for (const feature of this.#features) slices = { ...slices, ...feature.capture?.() };
    return slices;
  }

  restore(snapshot: SessionSnapshotV1): void {
    for (const feature of this.#features) feature.restore?.(snapshot);
  }
}
