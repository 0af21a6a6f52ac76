import type { LlmMessage } from '../llm/llm-client.js';
import { READ_ONLY_TOOL_CAPABILITIES } from './tool-capabilities.js';
import type { ToolDefinition } from './tool.js';
import type { AnyTool, ToolRegistry } from './tool-registry.js';

/** Name of the one tool through which the model finds and loads deferred tools. */
export const TOOL_SEARCH_NAME = 'tool_search';
/**
 * Default share of the model's context window (`maxContextTokens`) the MCP tool definitions may
 * take before they are deferred: 10%, like Claude Code's tool search.
 */
export const DEFAULT_DEFER_MCP_TOOLS_THRESHOLD = 0.1;
/** Longest one-line description of a catalogue entry (characters). */
const CATALOGUE_LINE = 80;
/** Most tools one search loads. */
const MAX_LOAD = 20;
const DEFAULT_LOAD = 5;

/** Only MCP tools (`mcp__<server>__<tool>`) are ever deferred. */
const isDeferrable = (name: string): boolean => name.startsWith('mcp__');

/** Uncalibrated tokens of one definition as sent (JSON, 4 characters per token). */
const definitionTokens = new WeakMap<AnyTool, number>();
function tokensOf(tool: AnyTool): number {
  let tokens = definitionTokens.get(tool);
  if (tokens === undefined) {
    tokens = Math.ceil((tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length + 40) / 4);
    definitionTokens.set(tool, tokens);
  }
  return tokens;
}

/** The first line (sentence) of a description, bounded; MCP's "(MCP tool ... of server ...)" suffix dropped. */
function oneLine(description: string): string {
  const line = (description.split('\n')[0] ?? '').trim();
  const sentence = /^(.*?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > CATALOGUE_LINE ? `${sentence.slice(0, CATALOGUE_LINE - 1)}…` : sentence;
}

/** Options of {@link DeferredTools}. */
export interface DeferredToolsOptions {
  /** false: every definition is always sent (session option `deferMcpTools: false`). */
  readonly enabled: boolean;
  /** Share of `contextTokens` above which MCP definitions are deferred (0 = always). */
  readonly threshold: number;
  /** The model's context window, tokens. */
  readonly contextTokens: number;
}

/** Tools made by {@link DeferredTools} (a child session drops a parent's). */
const searchTools = new WeakSet<AnyTool>();

/**
 * MCP tool schemas on demand, for ONE session. When the definitions of the session's MCP tools
 * would take more than `threshold` of the context window, a request carries none of them:
 * `tool_search` stands in for them, its description a compact catalogue (per server: names and
 * one-line descriptions), and a search loads the matching tools, whose full definitions join
 * every following request. The deferred tools stay registered: a call of one (loaded or not)
 * goes through the kernel like any other (validated, denied, asked, hooked).
 */
export class DeferredTools {
  readonly #registry: ToolRegistry;
  readonly #options: DeferredToolsOptions;
  readonly #loaded = new Set<string>();
  readonly #tool: AnyTool;
  /** Catalogue text cache, keyed by the deferred tool objects it was built from. */
  #catalogue: { readonly tools: readonly AnyTool[]; readonly text: string } | null = null;
  /** The `tool_search` definition of the last request (the same object while its catalogue is unchanged). */
  #searchDefinition: ToolDefinition | undefined;

  constructor(registry: ToolRegistry, options: DeferredToolsOptions) {
    this.#registry = registry;
    this.#options = options;
    const existing = registry.get(TOOL_SEARCH_NAME);
    if (existing !== null && searchTools.has(existing)) registry.unregister(TOOL_SEARCH_NAME);
    this.#tool = this.#createTool();
    searchTools.add(this.#tool);
  }

  /**
   * After a resume: the tools the conversation already loaded (listed in a `tool_search` result)
   * or called stay loaded, so their definitions keep coming with the requests.
   */
  restore(messages: readonly LlmMessage[]): void {
    const searches = new Set<string>();
    for (const message of messages) {
      for (const part of message.content) {
        if (part.type === 'tool_call') {
          if (part.name === TOOL_SEARCH_NAME) searches.add(part.id);
          else if (isDeferrable(part.name)) this.#loaded.add(part.name);
        } else if (part.type === 'tool_result' && searches.has(part.toolCallId) && !part.isError) {
          for (const match of part.content.matchAll(/^- (mcp__[A-Za-z0-9_-]+): /gm)) this.#loaded.add(match[1] as string);
        }
      }
    }
  }

  /** Names of the deferred tools a search has loaded, in load order. */
  loaded(): string[] {
    return [...this.#loaded];
  }

  /**
   * The definitions of the next model request: every tool's, except deferred MCP tools not loaded
   * yet, which `tool_search` (and its catalogue) stands in for. Registers or removes `tool_search`
   * as deferral starts or stops.
   */
  requestTools(): ToolDefinition[] {
    const tools = this.#registry.list();
    const deferred = this.#deferredOf(tools);
    const current = this.#registry.get(TOOL_SEARCH_NAME);
    if (deferred.length === 0) {
      if (current === this.#tool) this.#registry.unregister(TOOL_SEARCH_NAME);
      return tools.filter((tool) => tool !== this.#tool).map(definitionOf);
    }
    if (current === null) this.#registry.register(this.#tool);
    else if (current !== this.#tool) return tools.map(definitionOf); // a host's own tool_search: no deferral
    const hidden = new Set(deferred);
    const sent: ToolDefinition[] = [];
    for (const tool of tools) {
      if (hidden.has(tool) || tool === this.#tool) continue;
      sent.push(definitionOf(tool));
    }
    const description = this.#catalogueText(deferred);
    if (this.#searchDefinition?.description !== description) this.#searchDefinition = { name: TOOL_SEARCH_NAME, description, parameters: this.#tool.parameters };
    sent.push(this.#searchDefinition);
    return sent;
  }

  /** The MCP tools to defer now (empty when deferral is off or they fit). */
  #deferredOf(tools: readonly AnyTool[]): AnyTool[] {
    if (!this.#options.enabled) return [];
    let tokens = 0;
    const mcp: AnyTool[] = [];
    for (const tool of tools) {
      if (!isDeferrable(tool.name)) continue;
      mcp.push(tool);
      tokens += tokensOf(tool);
    }
    if (mcp.length === 0 || tokens <= this.#options.threshold * this.#options.contextTokens) return [];
    return mcp.filter((tool) => !this.#loaded.has(tool.name));
  }

  #catalogueText(deferred: readonly AnyTool[]): string {
    const cached = this.#catalogue;
    if (cached !== null && cached.tools.length === deferred.length && cached.tools.every((tool, index) => tool === deferred[index])) return cached.text;
    const servers = new Map<string, string[]>();
    for (const tool of deferred) {
      const rest = tool.name.slice('mcp__'.length);
      const cut = rest.indexOf('__');
      const server = cut <= 0 ? '' : rest.slice(0, cut);
      const lines = servers.get(server) ?? [];
      lines.push(`${cut <= 0 ? rest : rest.slice(cut + 2)}: ${oneLine(tool.description)}`);
      servers.set(server, lines);
    }
    const parts = [
      `Finds and loads tools of MCP servers whose full definitions are not sent yet. Call it with keywords or exact names ("select:mcp__srv__a,mcp__srv__b") before using one: the tools it returns can be called from your next step. Deferred tools (call as mcp__<server>__<name>):`,
    ];
    for (const [server, lines] of servers) parts.push(`server ${server}:\n${lines.join('\n')}`);
    const text = parts.join('\n');
    this.#catalogue = { tools: [...deferred], text };
    return text;
  }

  /** Deferred tools matching `query`, best first; loads them. */
  #search(query: string, limit: number): AnyTool[] {
    const candidates = this.#registry.list().filter((tool) => isDeferrable(tool.name));
    const trimmed = query.trim();
    if (trimmed.startsWith('select:')) {
      const names = trimmed.slice('select:'.length).split(',').map((name) => name.trim()).filter((name) => name.length > 0);
      return candidates.filter((tool) => names.some((name) => tool.name === name || tool.name.endsWith(`__${name}`))).slice(0, MAX_LOAD);
    }
    const exact = candidates.find((tool) => tool.name === trimmed);
    if (exact !== undefined) return [exact];
    const terms = trimmed.toLowerCase().split(/[^a-z0-9]+/).filter((term) => term.length > 0);
    if (terms.length === 0) return [];
    const scored: { tool: AnyTool; score: number }[] = [];
    for (const tool of candidates) {
      const name = tool.name.toLowerCase();
      const parts = new Set(name.split(/_+/));
      const description = tool.description.toLowerCase();
      let score = 0;
      for (const term of terms) {
        if (parts.has(term)) score += 4;
        else if (name.includes(term)) score += 2;
        if (description.includes(term)) score += 1;
      }
      if (score > 0) scored.push({ tool, score });
    }
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, limit).map((entry) => entry.tool);
  }

  #createTool(): AnyTool {
    return {
      name: TOOL_SEARCH_NAME,
      description: 'Finds and loads deferred MCP tools.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 2000, description: 'Keywords, an exact tool name, or "select:<name>,<name>" to load those tools.' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_LOAD, description: `Most tools to load (default ${DEFAULT_LOAD}).` },
        },
        required: ['query'],
        additionalProperties: false,
      },
      capabilities: () => READ_ONLY_TOOL_CAPABILITIES,
      execute: async (args: { query: string; limit?: number }) => {
        const found = this.#search(args.query, args.limit ?? DEFAULT_LOAD);
        if (found.length === 0) return { output: `No MCP tool matches '${args.query}'. The tool_search description lists every deferred tool.`, metadata: { loaded: [] } };
        for (const tool of found) this.#loaded.add(tool.name);
        const lines = found.map((tool) => `- ${tool.name}: ${oneLine(tool.description)}`);
        return { output: `Loaded ${found.length} tool(s); their full definitions are in your tool list from your next step, call them directly:\n${lines.join('\n')}`, metadata: { loaded: found.map((tool) => tool.name) } };
      },
    };
  }
}

/**
 * The definition of `tool`, the same object request after request while the tool's name,
 * description and schema stay the same objects: the provider clients keep the encoding of a
 * definition per object (see the Anthropic client's request encoder), so a fresh copy per request
 * would have them re-encode every schema every turn.
 */
const definitions = new WeakMap<AnyTool, ToolDefinition>();
function definitionOf(tool: AnyTool): ToolDefinition {
  const known = definitions.get(tool);
  if (known !== undefined && known.name === tool.name && known.description === tool.description && known.parameters === tool.parameters) return known;
  const definition: ToolDefinition = { name: tool.name, description: tool.description, parameters: tool.parameters };
  definitions.set(tool, definition);
  return definition;
}
