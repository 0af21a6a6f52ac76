/**
 * The plain text of a command from `bash`'s model-facing rendering (see `renderExec`): stdout,
 * then stderr, as the process wrote them (each bounded the same way), plus the notes the tool
 * adds when output was dropped, the command timed out or was cancelled. The section headers and
 * the `exit code:` trailer are left out: the exit code is the result's `exitCode`. Each stream
 * ends with a newline (the tool adds one when the process did not). A stdout that itself prints
 * a line `stderr:` is indistinguishable from the stderr section and is split there.
 */
export function execOutputText(rendered: string): string {
  const withoutTrailer = rendered.replace(/(?:^|(?<=\n))exit code: [^\n]*$/, '');
  const stdout = /^stdout:\n([\s\S]*?)(?=^stderr:\n|^\[|(?![\s\S]))/m.exec(withoutTrailer)?.[1] ?? '';
  const stderr = /^stderr:\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(withoutTrailer)?.[1] ?? '';
  const notes = withoutTrailer.match(/^\[(?:output truncated|timed out|cancelled)[^\n]*\]\n?/gm) ?? [];
  return `${stdout}${stderr}${notes.join('')}`;
}
