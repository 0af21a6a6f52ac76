import type { Tool } from '@a3s-lab/code-core';
import { mutatingCapabilities, utf8Encoder } from './tool-support.js';

/** Arguments of `write`. */
export interface WriteArgs {
  readonly file_path: string;
  readonly content: string;
}

/** Creates the `write` tool: writes a whole file (creating parent directories), replacing it. */
export function createWriteTool(): Tool<WriteArgs> {
  return {
    name: 'write',
    description: 'Create or replace a whole file (parents created). To change part of a file use edit or patch.',
    parameters: {
      type: 'object',
      additionalProperties: false,
      required: ['file_path', 'content'],
      properties: {
        file_path: { type: 'string', minLength: 1, description: 'Workspace-relative path.' },
        content: { type: 'string', description: 'The whole new content.' },
      },
    },
    requires: ['write'],
    capabilities: () => mutatingCapabilities(),
    permissionTarget: (args) => ({ kind: 'paths', paths: [args.file_path] }),
    async execute(args, context) {
      const { workspace, abortSignal } = context;
      if (workspace.writeFile === undefined) return { output: 'this workspace cannot write files', exitCode: 1, errorKind: { type: 'unsupported', message: 'workspace has no write capability' } };
      const existing = await workspace.stat({ path: args.file_path, abortSignal });
      if (existing !== null && existing.type === 'directory') {
        return { output: `${existing.path} is a directory; give a file path`, exitCode: 1, errorKind: { type: 'invalid_argument', message: `${existing.path} is a directory` } };
      }
      const bytes = utf8Encoder.encode(args.content);
      const written = await workspace.writeFile({ path: args.file_path, content: bytes, abortSignal });
      const created = existing === null;
      return {
        output: `${created ? 'Created' : 'Wrote'} ${written.path} (${bytes.byteLength} bytes)`,
        metadata: { path: written.path, bytes: bytes.byteLength, created, version: written.version },
      };
    },
  };
}
