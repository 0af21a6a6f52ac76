import { CodeError, HostFailure, toolFailure } from '@a3s-lab/code-core';
import type { ByteRange, ToolOutput, WorkspaceBackend, WorkspaceFile } from '@a3s-lab/code-core';
import { invalidArgument, notFound } from './tool-support.js';

/** A file read, or the typed failure explaining why it could not be. */
export type LoadedFile = { readonly ok: true; readonly file: WorkspaceFile } | { readonly ok: false; readonly failure: ToolOutput };

/**
 * Reads `path` through the workspace (its confinement included) and turns the expected failures
 * into typed outputs: missing -> not_found, outside the workspace -> permission_denied, a
 * directory, a FIFO/device or a file too large to load whole -> invalid_argument. With `range`
 * only that window is read (`file.size` is still the whole size). Cancellation and unexpected
 * host failures are rethrown.
 */
export async function loadFile(workspace: WorkspaceBackend, path: string, abortSignal: AbortSignal, range?: ByteRange): Promise<LoadedFile> {
  try {
    const file = await workspace.readFile({ path, abortSignal, ...(range === undefined ? {} : { range }) });
    if (file === null) return { ok: false, failure: notFound(path) };
    return { ok: true, file };
  } catch (error) {
    if (abortSignal.aborted || (error instanceof Error && error.name === 'AbortError')) throw error;
    if (CodeError.hasCode(error, 'SECURITY_ERROR')) return { ok: false, failure: toolFailure(error.message, { type: 'permission_denied', reason: error.message }) };
    if (HostFailure.isHostFailure(error)) {
      if (error.reason === 'NotFound') return { ok: false, failure: notFound(path) };
      const stat = await workspace.stat({ path, abortSignal }).catch(() => null);
      if (stat?.type === 'directory') return { ok: false, failure: invalidArgument(`${path} is a directory, not a file; use ls to list it`) };
      if (error.details['hostCode'] === 'EFBIG') return { ok: false, failure: invalidArgument(`${path} is too large to load whole (${String(error.details['size'])} bytes); read it with read and offset/limit`) };
      if (error.details['fileType'] !== undefined) return { ok: false, failure: invalidArgument(error.message) };
      if (error.reason === 'PermissionDenied') return { ok: false, failure: toolFailure(`cannot read ${path}: ${error.message}`, { type: 'permission_denied', reason: error.message }) };
    }
    throw error;
  }
}
