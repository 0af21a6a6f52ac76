/** One DNS answer. */
export interface ResolvedAddress {
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
}

/**
 * Resolves a host name to every address it has. The safe client calls it ONCE per hop, checks
 * every answer, and connects only to the address it checked.
 */
export type HostResolver = (hostname: string, options: { readonly abortSignal?: AbortSignal }) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (`getaddrinfo`, so `/etc/hosts` applies), every answer in resolver order. */
export const systemResolver: HostResolver = async (hostname) => {
  // Loaded by the first lookup, not at import.
  const { lookup } = await import('node:dns/promises');
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family }));
};
