/** Event names that can go on an `event:` line as they are. */
const SAFE_EVENT_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * One SSE message as text: `id:`, `event:` and one `data:` line per line of `data`, then a blank
 * line. An `id` or `event` holding CR or LF would split the message, so it is refused (TypeError);
 * an event name outside `[A-Za-z0-9_.:-]` is sent as the default `message` event (the envelope
 * in `data` still carries its type).
 */
export function formatSseMessage(message: { readonly event?: string; readonly id?: string; readonly data: string }): string {
  let text = '';
  if (message.id !== undefined) {
    if (/[\r\n\0]/.test(message.id)) throw new TypeError('an SSE id cannot contain CR, LF or NUL');
    text += `id: ${message.id}\n`;
  }
  if (message.event !== undefined && SAFE_EVENT_NAME.test(message.event)) text += `event: ${message.event}\n`;
  for (const line of message.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}
