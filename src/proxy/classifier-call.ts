/**
 * ctxshed's own call for `--labels model` (docs/labels.md): one non-streaming Messages API
 * request to the conversation's upstream, with the conversation's auth headers, its answer read
 * whole. The engine decides what to send and how long to wait; this only moves the bytes.
 */
import http from 'node:http';
import https from 'node:https';
import type { ClassifierCall } from '../rescue/index.js';
import type { UpstreamAgents } from './agents.js';
import { joinUpstreamPath } from './upstream-request.js';

/** A classifier answer longer than this is not one (a few hundred bytes per chunk). */
export const CLASSIFIER_MAX_RESPONSE_BYTES = 1024 * 1024;

/** The API version sent when the client's request named none. */
const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/** The call, to `upstream` through the proxy's agents. Never rejects: a failure is `undefined`. */
export function createClassifierCall(upstream: URL, agents: UpstreamAgents): ClassifierCall {
  return (request, signal) =>
    new Promise((resolve) => {
      const body = Buffer.from(request.body, 'utf8');
      const secure = upstream.protocol === 'https:';
      const options: http.RequestOptions = {
        method: 'POST',
        hostname: upstream.hostname,
        port: upstream.port === '' ? undefined : Number(upstream.port),
        path: joinUpstreamPath(upstream, '/v1/messages'),
        agent: secure ? agents.https : agents.http,
        signal,
        headers: {
          'anthropic-version': DEFAULT_ANTHROPIC_VERSION,
          ...request.headers,
          'content-type': 'application/json',
          // Read whole and parsed here: no compression to undo.
          'accept-encoding': 'identity',
          'content-length': String(body.length),
        },
      };
      const req = (secure ? https : http).request(options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > CLASSIFIER_MAX_RESPONSE_BYTES) {
            req.destroy();
            resolve(undefined);
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve(undefined));
      });
      req.on('error', () => resolve(undefined));
      req.end(body);
    });
}
