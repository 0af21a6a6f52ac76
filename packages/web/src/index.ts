// Public surface of @a3s-lab/code-web. Exports are listed by name.
export {
  DEFAULT_WEB_MAX_REDIRECTS,
  DEFAULT_WEB_MAX_RESPONSE_BYTES,
  DEFAULT_WEB_TIMEOUT_MS,
  DEFAULT_WEB_USER_AGENT,
  createSafeHttpClient,
} from './safe-http-client.js';
export type { SafeHttpClientOptions } from './safe-http-client.js';
export { HostAllowList } from './host-allow-list.js';
export { blockedAddress, blockedHostName } from './address-policy.js';
export { systemResolver } from './host-resolver.js';
export type { HostResolver, ResolvedAddress } from './host-resolver.js';
