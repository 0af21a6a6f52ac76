import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LocalWorkspaceBackend } from '@a3s-lab/code-local';

/** A temp directory holding a workspace root and a sibling "outside" directory. */
export interface LocalFixture {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  readonly backend: LocalWorkspaceBackend;
  write(relative: string, content: string | Uint8Array): Promise<void>;
  cleanup(): Promise<void>;
}

/** Creates `<tmp>/ws` (the workspace) and `<tmp>/outside` with a secret file. */
export async function createLocalFixture(files: Readonly<Record<string, string>> = {}): Promise<LocalFixture> {
  const base = await mkdtemp(join(tmpdir(), 'a3s-tools-'));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
  const write = async (relative: string, content: string | Uint8Array): Promise<void> => {
    await mkdir(dirname(join(root, relative)), { recursive: true });
    await writeFile(join(root, relative), content);
  };
  for (const [path, content] of Object.entries(files)) await write(path, content);
  const backend = new LocalWorkspaceBackend(root);
  return {
    base,
    root,
    outside,
    backend,
    write,
    cleanup: async () => {
      await backend.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** Runs git in `cwd` with a fixed identity (test setup only). */
export function gitSetup(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });
}
