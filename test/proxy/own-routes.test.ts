import { describe, expect, it } from 'vitest';
import { METRICS_PATH, ownPathOf } from '../../src/proxy/own-routes.js';

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
  ])('should take %s as the proxy\'s own path %s', (target, path) => {
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
