import type { LlmMessage, LlmRequest, ToolDefinition } from '@a3s-lab/code-core';
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { AnthropicRequestSettings } from './to-anthropic-request.js';
import { CACHEABLE_BLOCKS, toBlock, toToolChoice } from './to-anthropic-request.js';

/** The JSON of one message's blocks, split the way {@link toAnthropicMessages} orders a user turn. */
interface EncodedMessage {
  /** `tool_result` blocks (a user turn lists them first). */
  readonly results: readonly EncodedBlock[];
  /** Every other block, in order. */
  readonly others: readonly EncodedBlock[];
}
interface EncodedSystem {
  readonly text: string;
  readonly cached: boolean;
  readonly json: string;
}
interface EncodedBlock {
  readonly type: string;
  readonly json: string;
}

const CACHE_CONTROL_MEMBER = ',"cache_control":{"type":"ephemeral"}';

/** `json` (an object's JSON text) with `cache_control: ephemeral` as its last member, as `{ ...value, cache_control }` serialises. */
function withCacheControl(json: string): string {
  return `${json.slice(0, -1)}${CACHE_CONTROL_MEMBER}}`;
}

/**
 * Encodes Messages API bodies as JSON text, byte for byte what `JSON.stringify` gives for
 * {@link toAnthropicRequest} of the same request and settings, without re-walking what did not
 * change since the previous request: the JSON of each tool definition and of each message is kept
 * per object (a session sends the same definitions and the same, never mutated, history messages
 * every turn, plus one or two new messages), and the system prompt's for the last one seen. A
 * request then costs the new messages' encoding and one concatenation instead of a walk of the
 * whole conversation and every tool schema (~15 KB of them with the built-in tools).
 *
 * One encoder per client, which may serve many sessions (the SDK's agents share a client per
 * model): the caches hold weak references only (plus the last system prompt sent without messages).
 */
export class AnthropicRequestEncoder {
  readonly #tools = new WeakMap<ToolDefinition, string>();
  readonly #toolArrays = new WeakMap<ToolDefinition, { readonly tools: readonly ToolDefinition[]; readonly cached: boolean; readonly json: string }>();
  readonly #messages = new WeakMap<LlmMessage, EncodedMessage>();
  /**
   * The system prompt's JSON per conversation, keyed by its first message (one object per
   * session's history: a client shared by sessions with different prompts keeps each one's), and
   * for the last request without messages.
   */
  readonly #systems = new WeakMap<LlmMessage, EncodedSystem>();
  #system: EncodedSystem | undefined;

  /** The body of `request` as JSON text. Throws the mapping errors {@link toAnthropicRequest} throws, before any request. */
  encode(request: LlmRequest, settings: AnthropicRequestSettings): string {
    const messages = this.#encodeMessages(request.messages, settings.promptCaching);
    const tools = this.#encodeTools(request.tools, settings.promptCaching);
    let body = `{"model":${JSON.stringify(settings.model)},"max_tokens":${JSON.stringify(request.maxTokens ?? settings.maxTokens)},"stream":true`;
    if (request.system !== '') body += `,"system":${this.#encodeSystem(request.system, settings.promptCaching, request.messages[0])}`;
    body += `,"messages":${messages}`;
    if (tools !== undefined) {
      body += `,"tools":${tools}`;
      if (request.toolChoice !== undefined) body += `,"tool_choice":${JSON.stringify(toToolChoice(request.toolChoice))}`;
    }
    if (request.temperature !== undefined) body += `,"temperature":${JSON.stringify(request.temperature)}`;
    const thinking = settings.thinking;
    if (thinking !== undefined) {
      body += `,"thinking":${JSON.stringify(thinking.type === 'enabled' ? { type: 'enabled', budget_tokens: thinking.budgetTokens } : { type: thinking.type })}`;
    }
    return `${body}}`;
  }

  #encodeSystem(text: string, cached: boolean, first: LlmMessage | undefined): string {
    const last = first === undefined ? this.#system : this.#systems.get(first);
    if (last !== undefined && last.text === text && last.cached === cached) return last.json;
    const json = JSON.stringify([{ type: 'text', text, ...(cached ? { cache_control: { type: 'ephemeral' } } : {}) }]);
    if (first === undefined) this.#system = { text, cached, json };
    else this.#systems.set(first, { text, cached, json });
    return json;
  }

  #encodeTools(tools: readonly ToolDefinition[], cached: boolean): string | undefined {
    const first = tools[0];
    if (first === undefined) return undefined;
    // The whole array's text, for the same definitions in the same order (keyed by the first: a
    // client serving several sessions sees each session's own definition objects).
    const known = this.#toolArrays.get(first);
    if (known !== undefined && known.cached === cached && known.tools.length === tools.length && known.tools.every((tool, index) => tool === tools[index])) return known.json;
    const parts: string[] = [];
    for (const tool of tools) {
      let json = this.#tools.get(tool);
      if (json === undefined) {
        json = JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.parameters });
        this.#tools.set(tool, json);
      }
      parts.push(json);
    }
    if (cached) parts[parts.length - 1] = withCacheControl(parts[parts.length - 1] as string);
    const json = `[${parts.join(',')}]`;
    this.#toolArrays.set(first, { tools: [...tools], cached, json });
    return json;
  }

  #encodeMessage(message: LlmMessage, index: number): EncodedMessage {
    let encoded = this.#messages.get(message);
    if (encoded === undefined) {
      const results: EncodedBlock[] = [];
      const others: EncodedBlock[] = [];
      for (const part of message.content) {
        const block: ContentBlockParam | undefined = toBlock(part, message.role, index);
        if (block === undefined) continue;
        (block.type === 'tool_result' ? results : others).push({ type: block.type, json: JSON.stringify(block) });
      }
      encoded = { results, others };
      this.#messages.set(message, encoded);
    }
    return encoded;
  }

  /** The `messages` array: consecutive messages of one role merged, tool results first in a user turn (see toAnthropicMessages). */
  #encodeMessages(messages: readonly LlmMessage[], cached: boolean): string {
    const turns: { readonly role: LlmMessage['role']; readonly blocks: EncodedBlock[] }[] = [];
    messages.forEach((message, index) => {
      const { results, others } = this.#encodeMessage(message, index);
      if (results.length === 0 && others.length === 0) return;
      const previous = turns.at(-1);
      if (previous?.role === message.role) {
        previous.blocks.push(...results, ...others);
      } else {
        turns.push({ role: message.role, blocks: [...results, ...others] });
      }
    });
    const encodedTurns: string[] = [];
    turns.forEach((turn, index) => {
      // A merged user turn lists every tool result first, the rest after them in their order.
      const blocks = turn.role === 'user' ? [...turn.blocks.filter((b) => b.type === 'tool_result'), ...turn.blocks.filter((b) => b.type !== 'tool_result')] : turn.blocks;
      const json = blocks.map((block) => block.json);
      const tail = blocks.at(-1);
      if (cached && index === turns.length - 1 && tail !== undefined && CACHEABLE_BLOCKS.has(tail.type)) json[json.length - 1] = withCacheControl(tail.json);
      encodedTurns.push(`{"role":${JSON.stringify(turn.role)},"content":[${json.join(',')}]}`);
    });
    return `[${encodedTurns.join(',')}]`;
  }
}
