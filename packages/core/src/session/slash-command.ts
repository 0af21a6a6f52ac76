// The data of slash commands (`session.registerCommand()`, `listCommands()`).

/** What a command handler gets: its argument text and an abort signal. */
export interface SlashCommandContext {
  readonly args: string;
  readonly signal: AbortSignal;
}

/** A command handler: returns the text shown as the command's answer. */
export type SlashCommandHandler = (context: SlashCommandContext) => string | Promise<string>;

/** A registered command, as listed by `listCommands()`. */
export interface SlashCommandInfo {
  readonly name: string;
  readonly description: string;
  readonly builtin: boolean;
}
