/**
 * What an S3 session lease object holds (the same record as the server's file leases). Plain
 * data (`@a3s-lab/code` declares its own copy).
 */
export interface S3LeaseRecord {
  /** Id of the holding process (random per `S3SessionLeases` instance). */
  readonly owner: string;
  /** Host name and pid of the holder, for operators. */
  readonly host: string;
  readonly pid: number;
  /** Wall-clock time after which any process may take the lease over. */
  readonly expiresAtMs: number;
  /** Base URL where the holder serves its API (the web host advertises it), when it named one. */
  readonly endpoint?: string;
}
