import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createUpstreamAgents, DEFAULT_MAX_SOCKETS } from '../../src/proxy/agents.js';
import type { UpstreamAgents } from '../../src/proxy/agents.js';
import { closeServer, listen } from './harness.js';

describe('createUpstreamAgents', () => {
  let agents: UpstreamAgents | undefined;
  let server: http.Server | undefined;
  afterEach(async () => {
    agents?.http.destroy();
    agents?.https.destroy();
    if (server !== undefined) await closeServer(server);
  });

  it('should cap sockets per origin at the default, or at the given number', () => {
    agents = createUpstreamAgents();
    const custom = createUpstreamAgents({ maxSockets: 3 });

    expect(agents.http.maxSockets).toBe(DEFAULT_MAX_SOCKETS);
    expect(agents.https.maxSockets).toBe(DEFAULT_MAX_SOCKETS);
    expect(custom.http.maxSockets).toBe(3);
    custom.http.destroy();
    custom.https.destroy();
  });

  it('should reuse one kept-alive connection for sequential requests', async () => {
    agents = createUpstreamAgents();
    let connections = 0;
    server = http.createServer((_req, res) => res.end('ok'));
    server.on('connection', () => connections++);
    const url = await listen(server);
    const get = (): Promise<void> =>
      new Promise((resolve, reject) => {
        http
          .get({ host: url.hostname, port: Number(url.port), path: '/', agent: agents?.http }, (res) => {
            res.resume();
            res.on('end', resolve);
          })
          .on('error', reject);
      });

    await get();
    await get();
    await get();

    expect(connections).toBe(1);
  });
});
