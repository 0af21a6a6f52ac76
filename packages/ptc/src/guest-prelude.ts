/**
 * Source of the guest-side bootstrap, evaluated as a global script before the program. It is a
 * function expression: the host calls it with its two host functions and the inputs JSON, so
 * the host functions never appear on `globalThis` and the script can only reach them through
 * `ctx` and `console`. Built-ins are captured before user code runs, so a script that
 * replaces `JSON` or `Promise.prototype.then` only breaks its own calls.
 *
 * Every value crosses the boundary as a JSON string: the script never holds a host object.
 * The host answers a call with `{"ok":true,"value":...}` or `{"ok":false,"error":{...}}`; a
 * helper throws an `Error` for the latter (catchable), `ctx.tool` returns the result object.
 */
export const GUEST_PRELUDE_SOURCE = String.raw`(function (hostCall, hostLog, inputsJson) {
  'use strict';
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const ErrorCtor = Error;
  const StringCtor = String;
  const freeze = Object.freeze;
  const thenOf = Promise.prototype.then;
  const call = (helper, args) => {
    let payload;
    try {
      payload = stringify(args === undefined ? null : args);
    } catch (error) {
      return Promise.reject(new TypeError('ctx.' + helper + ': arguments must be JSON-serialisable'));
    }
    return thenOf.call(hostCall(helper, payload === undefined ? 'null' : payload), (text) => {
      const reply = parse(text);
      if (reply.ok) return reply.value;
      const error = new ErrorCtor(reply.error.message);
      error.name = 'ToolCallError';
      if (reply.error.tool !== undefined) error.tool = reply.error.tool;
      if (reply.error.exitCode !== undefined) error.exitCode = reply.error.exitCode;
      if (reply.error.errorKind !== undefined) error.errorKind = reply.error.errorKind;
      throw error;
    });
  };
  const isCount = (value, min) => typeof value === 'number' && value >= min && value % 1 === 0 && value <= 9007199254740991;
  // ctx.readFile(path, {offset, limit}): exactly the lines [offset, offset + limit) as raw text,
  // read in pages of at most 2000 lines, each shrunk to the size the host names when bounded.
  const readWindow = async (path, options) => {
    const offset = options.offset === undefined ? 0 : options.offset;
    const wanted = options.limit === undefined ? Infinity : options.limit;
    if (!isCount(offset, 0)) throw new TypeError('ctx.readFile(path, {offset, limit}): offset must be a non-negative integer');
    if (wanted !== Infinity && !isCount(wanted, 1)) throw new TypeError('ctx.readFile(path, {offset, limit}): limit must be a positive integer');
    let text = '';
    let at = offset;
    let remaining = wanted;
    let limit = remaining < 2000 ? remaining : 2000;
    for (;;) {
      const page = await call('readFilePage', [path, at, limit]);
      if (page.bounded) {
        limit = page.pageLines;
        continue;
      }
      text += page.text;
      if (page.next === null || page.next <= at) return text;
      remaining -= page.next - at;
      if (remaining <= 0) return text;
      at = page.next;
      limit = remaining < 2000 ? remaining : 2000;
    }
  };
  const ctx = freeze({
    readFile: async (path, options) => {
      if (options !== undefined && options !== null && (options.offset !== undefined || options.limit !== undefined)) return readWindow(path, options);
      // One raw read of the whole file; pages of the size the host names only when it was too
      // large to come back inline.
      let page = await call('readFilePage', [path, null, null]);
      if (!page.bounded) return page.text;
      let text = '';
      let offset = 0;
      let limit = page.pageLines;
      for (;;) {
        page = await call('readFilePage', [path, offset, limit]);
        if (page.bounded) {
          limit = page.pageLines;
          continue;
        }
        text += page.text;
        if (page.next === null || page.next <= offset) return text;
        offset = page.next;
      }
    },
    read: (pathOrArgs, options) => call('read', [pathOrArgs, options]),
    grep: (pattern, options) => call('grep', [pattern, options]),
    glob: (pattern, options) => call('glob', [pattern, options]),
    ls: (path, options) => call('ls', [path, options]),
    bash: (command, options) => call('bash', [command, options]),
    git: (commandOrArgs, options) => call('git', [commandOrArgs, options]),
    tool: (name, args) => call('tool', [name, args]),
  });
  const format = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof ErrorCtor) return StringCtor(value.stack ? value.name + ': ' + value.message + '\n' + value.stack : value);
    try {
      const text = stringify(value);
      return text === undefined ? StringCtor(value) : text;
    } catch (error) {
      return StringCtor(value);
    }
  };
  const logger = (level) => (...values) => {
    hostLog(level, values.map(format).join(' '));
  };
  const console = freeze({ log: logger('log'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug') });
  Object.defineProperty(globalThis, 'console', { value: console, writable: true, configurable: true, enumerable: false });
  const encodeResult = (value) => {
    if (typeof value === 'string') return 's' + value;
    const text = value === undefined ? undefined : stringify(value, null, 2);
    return 'j' + (text === undefined ? 'null' : text);
  };
  return freeze({ ctx, inputs: parse(inputsJson), encodeResult });
})`;

/**
 * Appended to the program source so a plain `async function run(ctx, inputs)` declaration
 * (no export) is found too. `typeof` of an undeclared name is `'undefined'`, never an error.
 */
export const RUN_CAPTURE_TRAILER = '\n;export const __a3s_program_run__ = typeof run === "function" ? run : undefined;\n';

/** Name of the export {@link RUN_CAPTURE_TRAILER} adds. */
export const RUN_CAPTURE_EXPORT = '__a3s_program_run__';
