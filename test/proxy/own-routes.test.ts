import { describe, expect, it } from 'vitest';
import { decideOwnRoute, METRICS_PATH, ownPathOf, type OwnRequest } from '../../src/proxy/own-routes.js';

describe('ownPathOf', () => {
  it.each([
    ['/_ctxshed/metrics', METRICS_PATH],
    ['/_ctxshed/metrics?x=1', METRICS_PATH],
    ['/_ctxshed/metrics#top', METRICS_PATH],
    ['/_ctxshed/', '/_ctxshed/'],
    ['/_ctxshed', '/_ctxshed'],
    ['/_ctxshed?x', '/_ctxshed'],
    ['/_ctxshed/anything/else', '/_ctxshed/anything/else'],
    // The absolute form is forwarded by its path, so it is judged by it too.
    ['http://127.0.0.1:8787/_ctxshed/metrics', METRICS_PATH],
    ['http://127.0.0.1:8787/v1/../_ctxshed/metrics', METRICS_PATH],
  ])("should take %s as the proxy's own path %s", (target, path) => {
    expect(ownPathOf(target)).toBe(path);
  });

  it.each([
    ['/v1/messages?beta=true'],
    ['/v1/messages/count_tokens'],
    ['/_ctxshedx/metrics'],
    ['/_CTXSHED/metrics'],
    ['/v1/_ctxshed/metrics'],
    ['//_ctxshed/metrics'],
    ['*'],
    ['http://127.0.0.1:8787/v1/messages'],
    ['http://[bad/_ctxshed/metrics'],
  ])('should leave %s to the upstream', (target) => {
    expect(ownPathOf(target)).toBeUndefined();
  });
});

describe('decideOwnRoute', () => {
  const LOCAL: OwnRequest = { method: 'GET', path: METRICS_PATH, remoteAddress: '127.0.0.1', host: '127.0.0.1:8787' };

  it('should serve the metrics to GET from a loopback peer naming a loopback host', () => {
    expect(decideOwnRoute(LOCAL)).toEqual({ kind: 'metrics' });
  });

  it.each([
    ['a peer that is not loopback', { remoteAddress: '10.0.0.5' }],
    ['a peer address that is gone', { remoteAddress: undefined }],
    ['a Host that is not a loopback name', { host: 'evil.example:8787' }],
    ['no Host', { host: undefined }],
    ['a peer that is not loopback, even asking for a path that is not a route', { remoteAddress: '10.0.0.5', path: '/_ctxshed/nope' }],
  ])('should refuse %s with a 403', (_what, change) => {
    expect(decideOwnRoute({ ...LOCAL, ...change })).toMatchObject({ kind: 'refused', status: 403, type: 'permission_error' });
  });

  it.each([
    ['another method', { method: 'POST' }],
    ['HEAD', { method: 'HEAD' }],
    ['another path', { path: '/_ctxshed/nope' }],
    ['the bare prefix', { path: '/_ctxshed' }],
  ])('should answer %s with a 404', (_what, change) => {
    expect(decideOwnRoute({ ...LOCAL, ...change })).toMatchObject({ kind: 'refused', status: 404, type: 'not_found_error' });
  });
});
