/**
 * The face of src/server/http: what other modules may use of it (issue 37's import rule).
 */

export { resolveClientIp } from './client-ip.ts';
export { clientIpOf, clientNetwork, clientNetworkOf, type RequestClient } from './client-network.ts';
export { compressed } from './compress.ts';
export { checkFormStamp, newFormStamp } from './form-stamp.ts';
export { warnOnUntrustedProxy } from './proxy-warning.ts';
export { STAFF_REFUSALS, actionErrorBody } from './refusals.ts';
export { loggedRequests } from './request-log.ts';
export { secureHandler } from './security.ts';
export { seeOther } from './see-other.ts';
export {
  IMMUTABLE,
  htmlResponseFixes,
  loadStaticFiles,
  renderedFile,
  staticFilesHandler,
  type CachedFile,
} from './static-files.ts';
