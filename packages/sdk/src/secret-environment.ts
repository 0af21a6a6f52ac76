/** Names that mark an environment variable as secret (matched case-insensitively). */
export const SECRET_NAME_MARKERS = ['KEY', 'SECRET', 'TOKEN', 'PASSWORD'] as const;

/**
 * Values of secret-named environment variables, for redaction: a tool that prints one (`env`,
 * a config dump) never leaks it into results, events or snapshots.
 */
export function secretEnvironmentValues(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < 6) continue;
    const upper = name.toUpperCase();
    if (SECRET_NAME_MARKERS.some((marker) => upper.includes(marker))) values.push(value);
  }
  return values;
}
