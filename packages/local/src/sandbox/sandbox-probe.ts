import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The outcome of probing for bubblewrap: its path, or why no sandbox can start. */
export type SandboxProbe = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string };

// The same namespaces and flags every sandboxed call uses: a bwrap that cannot do one of them
// (no unprivileged user namespaces, an old bwrap without --disable-userns...) fails here, once.
const PROBE_ARGS = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-net', '--unshare-uts', '--die-with-parent', '--new-session', '--disable-userns', '--cap-drop', 'ALL', '--', 'true'];
const PROBE_TIMEOUT_MS = 5000;

const probes = new Map<string, SandboxProbe>();

/** Environment variable naming the bubblewrap binary (tests point it at a missing path). */
export const BWRAP_PATH_ENV = 'A3S_CODE_BWRAP';

/**
 * Why no sandbox can start on `platform`, or null on Linux. macOS has no bubblewrap, and a3s-code
 * builds its sandbox argv itself (no library), so Seatbelt (`sandbox-exec`) is not implemented.
 */
export function unsupportedPlatformReason(platform: NodeJS.Platform): string | null {
  if (platform === 'linux') return null;
  if (platform === 'darwin') return "no sandbox on platform 'darwin' (macOS): Seatbelt is not implemented (a3s-code builds bubblewrap's argv itself, and bubblewrap is Linux-only)";
  return `no sandbox on platform '${platform}': bubblewrap is Linux-only`;
}

/**
 * Finds bubblewrap (`explicit`, else `$A3S_CODE_BWRAP`, else `bwrap` on PATH, else
 * /usr/bin/bwrap) and runs one trivial sandbox with it. The result is cached per binary for the
 * life of the process. Only the host sets these (a command's environment never reaches here).
 * `platform` (default `process.platform`): anything but Linux has no sandbox (see
 * {@link unsupportedPlatformReason}).
 */
export function probeBubblewrap(explicit?: string, platform: NodeJS.Platform = process.platform): SandboxProbe {
  const unsupported = unsupportedPlatformReason(platform);
  if (unsupported !== null) return { ok: false, reason: unsupported };
  const fromEnv = process.env[BWRAP_PATH_ENV];
  const path = explicit ?? (fromEnv === undefined || fromEnv === '' ? undefined : fromEnv) ?? findOnPath('bwrap') ?? '/usr/bin/bwrap';
  let probe = probes.get(path);
  if (probe === undefined) {
    probe = runProbe(path);
    probes.set(path, probe);
  }
  return probe;
}

function runProbe(path: string): SandboxProbe {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return { ok: false, reason: `bubblewrap not found at ${path} (install the 'bubblewrap' package)` };
  }
  const run = spawnSync(path, PROBE_ARGS, { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
  if (run.error !== undefined) return { ok: false, reason: `bubblewrap at ${path} did not start: ${run.error.message}` };
  if (run.status !== 0) {
    const stderr = run.stderr.toString('utf8').trim().slice(0, 300);
    return { ok: false, reason: `bubblewrap at ${path} cannot create the sandbox (exit ${String(run.status ?? run.signal)}): ${stderr || 'no message'}` };
  }
  return { ok: true, path };
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}
