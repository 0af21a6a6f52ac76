// A unified diff with added, removed and hunk lines coloured (text only; long diffs are cut).
import type { ReactNode } from 'react';

const MAX_DIFF_LINES = 400;

/** Class of one unified-diff line. */
export function diffLineClass(line: string): 'add' | 'del' | 'hunk' | 'file' | 'ctx' {
  if (line.startsWith('+++') || line.startsWith('---')) return 'file';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  if (line.startsWith('@@')) return 'hunk';
  return 'ctx';
}

/** True when `text` reads as a unified diff (a hunk header, or file headers). */
export function looksLikeDiff(text: string): boolean {
  return /^@@ .* @@/m.test(text) || (/^--- /m.test(text) && /^\+\+\+ /m.test(text));
}

/** `text` drawn as a coloured unified diff. */
export function DiffView({ text }: { readonly text: string }): ReactNode {
  const lines = text.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, MAX_DIFF_LINES);
  return (
    <pre className="diff">
      {shown.map((line, index) => (
        <span key={index} className={diffLineClass(line)}>
          {line === '' ? ' ' : line}
        </span>
      ))}
      {lines.length > shown.length ? <span className="hunk">… {lines.length - shown.length} more lines</span> : null}
    </pre>
  );
}
