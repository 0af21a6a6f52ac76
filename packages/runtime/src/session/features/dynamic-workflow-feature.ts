import type { ToolRegistry } from '@a3s-lab/code-core/kernel';
import type { SessionFeature } from '../session-feature.js';
import { createDynamicWorkflowTool, DYNAMIC_WORKFLOW_TOOL } from './dynamic-workflow-tool.js';

/** The opt-in `dynamic_workflow` tool (`session.registerDynamicWorkflowRuntime()`), kept across a resume. */
export interface DynamicWorkflowFeature extends SessionFeature {
  /** Adds `dynamic_workflow` to the session's tools (replacing a tool of that name). */
  enable(): void;
  /** True while the session's `dynamic_workflow` is this feature's tool (a host may unregister or replace it). */
  enabled(): boolean;
}

export function dynamicWorkflowFeature(registry: ToolRegistry): DynamicWorkflowFeature {
  // The registry is the one owner of whether the tool is there: enabled() asks it.
  const tool = createDynamicWorkflowTool();
  const enabled = (): boolean => registry.get(DYNAMIC_WORKFLOW_TOOL) === tool;
  const enable = (): void => registry.register(tool, { replace: true });
  return {
    name: 'dynamic-workflow',
    enable,
    enabled,
    capture: () => ({ dynamicWorkflow: enabled() }),
    restore: (snapshot) => {
      if (snapshot.dynamicWorkflow === true) enable();
      else if (enabled()) registry.unregister(DYNAMIC_WORKFLOW_TOOL);
    },
  };
}
