import type { AnyTool, SecurityProvider, ToolServices } from '@a3s-lab/code-core';
import type { AgentSession, ChildSessionRequest } from '@a3s-lab/code-runtime';
import { childConfigDefaults } from './config-session-defaults.js';
import { buildSessionRuntime, toolsFor } from './session-recipe.js';
import type { RecipeAgent } from './session-recipe.js';
import { sessionSandboxStatus } from './session-sandbox.js';

/**
 * Builds a subagent's session: its agent's tools within the parent's (built-ins, and the parent's
 * MCP tools in `parentMcpTools`), its model, on the parent's workspace, with the parent's
 * redaction and web services.
 */
export function buildChildSession(agent: RecipeAgent, request: ChildSessionRequest, security: SecurityProvider, services: ToolServices, parentMcpTools: readonly AnyTool[] = []): AgentSession {
  const allowed = new Set(request.parentTools);
  return buildSessionRuntime(agent, {
    options: {
      ...(request.model === undefined ? {} : { model: request.model }),
      maxToolRounds: request.maxSteps,
      instructions: request.instructions,
      ...(request.permissionPolicy === undefined ? {} : { permissionPolicy: request.permissionPolicy }),
      ...(request.telemetry === undefined ? {} : { telemetry: request.telemetry.options }),
    },
    // The config's execution defaults apply to children as to every session.
    defaults: childConfigDefaults(agent.config),
    sessionId: request.sessionId,
    // The parent's web client: the same allow-list and caps (delegation never widens reach).
    services: () => services,
    // The parent's backend, hence the parent's sandbox.
    workspace: () => ({ backend: request.workspace, workspace: request.workspace, owns: false, sandboxStatus: sessionSandboxStatus(request.workspace, undefined, false) }),
    // Its agent's tools within the parent's (built-ins, and the parent's MCP tools).
    tools: (available) => toolsFor(request.agent, [...available, ...parentMcpTools]).filter((t) => allowed.has(t.name)),
    security: () => security,
    init: () => ({
      inheritedPolicies: request.inheritedPolicies,
      confirmation: request.confirmation,
      budget: request.budget,
      ...(request.activeSkillTools === undefined ? {} : { activeSkillTools: request.activeSkillTools }),
      agentName: request.agent.name,
      ...(request.telemetry?.parent === undefined ? {} : { telemetryParent: request.telemetry.parent }),
    }),
  });
}
