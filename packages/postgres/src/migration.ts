/** One schema change: applied once, in version order, in a transaction of its own. */
export interface Migration {
  /** Unique, positive; the session store uses 1-99, the fleet 100 and up. */
  readonly version: number;
  readonly name: string;
  /** The SQL script (several statements allowed). */
  readonly up: string;
}
