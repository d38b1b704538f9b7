/** ctxshed's own version: the proxy's health route tells it too, so it lives there. */
export { packageVersion } from '../proxy/package-version.js';
