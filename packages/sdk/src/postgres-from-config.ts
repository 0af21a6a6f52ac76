import type { AgentConfig } from '@a3s-lab/code-config';

/**
 * The secret of the config's `postgres { url }`: the URL's password (decoded), so that it is
 * redacted from tool output, events and snapshots like the provider keys. Empty without one.
 */
export function postgresConfigCredentials(config: AgentConfig): string[] {
  const url = config.postgres?.url;
  if (url === undefined) return [];
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password.length > 0 ? [password] : [];
  } catch {
    return [];
  }
}
