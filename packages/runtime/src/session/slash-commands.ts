import { CodeError } from '@a3s-lab/code-core';
import type { SlashCommandHandler, SlashCommandInfo } from '@a3s-lab/code-core';

const NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * The session's slash commands: `/name args` typed into `send()` / `stream()` runs the handler
 * instead of a model turn. An unknown `/word` is not a command (it goes to the model unchanged).
 */
export class SlashCommandRegistry {
  readonly #commands = new Map<string, { readonly info: SlashCommandInfo; readonly handler: SlashCommandHandler }>();

  /** Registers (or, for host commands, replaces) a command. Built-ins cannot be replaced. */
  register(name: string, description: string, handler: SlashCommandHandler, builtin = false): void {
    if (typeof name !== 'string' || !NAME.test(name)) throw new CodeError('SESSION_ERROR', `command name must match ${NAME} (without the slash)`, { details: { field: 'name' } });
    if (typeof handler !== 'function') throw new CodeError('SESSION_ERROR', 'command handler must be a function', { details: { field: 'handler' } });
    if (this.#commands.get(name)?.info.builtin === true && !builtin) throw new CodeError('SESSION_ERROR', `/${name} is a built-in command`, { details: { field: 'name' } });
    this.#commands.set(name, { info: { name, description, builtin }, handler });
  }

  list(): SlashCommandInfo[] {
    return [...this.#commands.values()].map((c) => c.info).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The command a prompt invokes (`/name` at the very start, then whitespace or the end), or `null`. */
  match(prompt: string): { readonly handler: SlashCommandHandler; readonly name: string; readonly args: string } | null {
    const m = /^\/([a-z][a-z0-9_-]{0,31})(?:\s+([\s\S]*))?$/.exec(prompt.trim());
    if (m === null) return null;
    const command = this.#commands.get(m[1] as string);
    return command === undefined ? null : { handler: command.handler, name: command.info.name, args: (m[2] ?? '').trim() };
  }
}
