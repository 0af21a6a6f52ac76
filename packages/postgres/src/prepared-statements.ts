// Statements the `pg` driver runs as named (prepared) statements: parsed and planned once per
// connection instead of at every execution. Only the fixed hot statements of this package are
// registered (a finite set of texts): a statement built per call would grow every connection's
// set of prepared statements without bound.
import { createHash } from 'node:crypto';

const names = new Map<string, string>();

/**
 * Registers `sql` as a prepared statement of the `pg` driver and returns it unchanged: pass the
 * returned text to `query()` as usual (PGlite runs it as any other statement). The name is derived
 * from the text, so two texts never share one on a connection.
 */
export function prepared(sql: string): string {
  if (!names.has(sql)) names.set(sql, `a3s_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`);
  return sql;
}

/** The prepared statement name of `sql`, or `undefined` when it is not registered. */
export function preparedName(sql: string): string | undefined {
  return names.get(sql);
}
