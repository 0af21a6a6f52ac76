// The client's `fs/read_text_file` / `fs/write_text_file` as the session's file access (a
// `workspaceOverlay`): reads of text files return the editor's content (its unsaved buffer for an
// open file), writes and edits go through the editor. The SDK confines every path with the
// session's own backend before this overlay sees it (workspace, deny-read list, protected paths),
// and the kernel (permission rules, hooks, confirmation) runs before the tool does: a refused
// path never reaches the client. Binary and very large files, and whatever the client does not
// offer, are served by the workspace backend.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { HostFailure } from '@a3s-lab/code';
import type { WorkspaceBackend, WorkspaceOverlay } from '@a3s-lab/code';

type ReadFileOptions = Parameters<WorkspaceBackend['readFile']>[0];
type WorkspaceFile = NonNullable<Awaited<ReturnType<WorkspaceBackend['readFile']>>>;
type WriteFileOptions = Parameters<NonNullable<WorkspaceBackend['writeFile']>>[0];

/** What the client offered in `initialize` (`clientCapabilities.fs`). */
export interface EditorFileAccess {
  readonly read: boolean;
  readonly write: boolean;
}

/** The client's file methods, by absolute path. */
export interface EditorFileClient {
  readonly readText: (path: string) => Promise<string>;
  readonly writeText: (path: string, content: string) => Promise<void>;
  readonly log: (line: string) => void;
}

/** Files larger than this on disk are read from disk (windowed), not through the client. */
const MAX_EDITOR_FILE_BYTES = 8 * 1024 * 1024;
const SNIFF_BYTES = 8192;
const VERSION_PREFIX = 'editor:';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** True when the client offers at least one of the two file methods. */
export function offersFiles(access: EditorFileAccess): boolean {
  return access.read || access.write;
}

/**
 * The overlay routing a session's reads (`access.read`) and writes (`access.write`) of text files
 * to the client. Versions of the files it serves are content hashes (`editor:<sha256>`), so an
 * `edit` still refuses to write over a buffer that changed since it was read.
 */
export function editorFilesOverlay(client: EditorFileClient, access: EditorFileAccess): WorkspaceOverlay {
  return (inner: WorkspaceBackend): WorkspaceBackend => {
    const absolute = (path: string): string => posix.join(inner.root, path);

    const readThroughEditor = async (options: ReadFileOptions): Promise<WorkspaceFile | null> => {
      const signal = options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal };
      const stat = await inner.stat({ path: options.path, ...signal });
      if (stat !== null && (stat.type !== 'file' || stat.size > MAX_EDITOR_FILE_BYTES)) return inner.readFile(options);
      if (stat !== null) {
        const head = await inner.readFile({ path: options.path, range: { start: 0, length: SNIFF_BYTES }, ...signal });
        if (head === null || head.content.subarray(0, SNIFF_BYTES).includes(0)) return inner.readFile(options);
      }
      let text: string;
      try {
        text = await client.readText(absolute(options.path));
      } catch (error) {
        // A file the editor cannot give (not on disk, not open): the workspace answers.
        if (stat === null) return null;
        client.log(`fs/read_text_file ${options.path} failed, read from disk: ${error instanceof Error ? error.message : String(error)}`);
        return inner.readFile(options);
      }
      const bytes = new TextEncoder().encode(text);
      const content = options.range === undefined ? bytes : bytes.subarray(options.range.start, options.range.start + options.range.length);
      return { path: options.path, content, size: bytes.byteLength, version: versionOf(bytes) };
    };

    const readFile = access.read ? readThroughEditor : (options: ReadFileOptions) => inner.readFile(options);

    const writeFile = async (options: WriteFileOptions): Promise<{ readonly path: string; readonly version: string }> => {
      const signal = options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal };
      const { expectedVersion: expected, ...unconditional } = options;
      // A version the editor gave (a content hash) is checked here, against what it holds now.
      const editorVersion = typeof expected === 'string' && expected.startsWith(VERSION_PREFIX);
      if (editorVersion) {
        const current = await readFile({ path: options.path, ...signal });
        if (current?.version !== expected) throw new HostFailure('Conflict', `${options.path} changed in the editor since it was read`, { path: options.path, details: { expected, actual: current?.version ?? null } });
      }
      const bytes = typeof options.content === 'string' ? new TextEncoder().encode(options.content) : options.content;
      const text = access.write ? utf8Text(bytes) : null;
      // Not text, or the client takes no writes: the workspace writes it (a disk version it checks itself).
      if (text === null) return inner.writeFile!(editorVersion ? unconditional : options);
      if (expected === null || (typeof expected === 'string' && !editorVersion)) {
        // A version the disk gave (the client offers no reads): the disk must still be at it.
        const now = await inner.stat({ path: options.path, ...signal });
        if (expected === null ? now !== null : now?.version !== expected) throw new HostFailure('Conflict', `${options.path} ${expected === null ? 'exists already' : 'changed since it was read'}`, { path: options.path });
      }
      await client.writeText(absolute(options.path), text);
      return { path: options.path, version: versionOf(bytes) };
    };

    return {
      kind: inner.kind,
      root: inner.root,
      capabilities: inner.capabilities,
      resolvePath: (options) => inner.resolvePath(options),
      stat: (options) => inner.stat(options),
      readFile,
      ...(inner.writeFile === undefined ? {} : { writeFile }),
    };
  };
}

function versionOf(bytes: Uint8Array): string {
  return `${VERSION_PREFIX}${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}`;
}

function utf8Text(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
