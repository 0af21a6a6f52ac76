import type { AgentSession } from '@a3s-lab/code-runtime';
import type { ToolSurface } from '@a3s-lab/code-core';

/** The {@link ToolSurface} of a live core session: what tool sources may touch, nothing more. */
export function sessionToolSurface(core: AgentSession): ToolSurface {
  return {
    sessionId: core.id,
    register: (tool) => core.registerTool(tool),
    unregister: (name) => core.unregisterTool(name),
    has: (name) => core.toolNames().includes(name),
    emit: (event) => core.emitEvent(event),
  };
}
