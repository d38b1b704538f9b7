/**
 * A fuzz suite for the Responses WebSocket relay of a `ctxshed serve` process (the built CLI; issue
 * 41 item 8): seeded cases of bad client
 * input on sockets of their own (frames cut short, masked wrong or not at all, oversized, reserved
 * bits and opcodes, fragments out of order, bad JSON and bad UTF-8 in a message), with a scripted
 * Codex session taking its turns over its own socket in between. Counted: deaths (the proxy's
 * health route stops answering) and valid messages made invalid (a turn not answered 200, or not
 * sent upstream byte for byte as the client's HTTP transport would send it). Both must be 0.
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeFrame, OPCODE } from '../../src/proxy/websocket/frame-writer.js';
import { seededRandom, type SeededRandom } from '../bench/seeded-random.js';
import { OpenAiScriptedClient } from '../support/openai-scripted-client.js';
import { functionCall, isResponsesRequest, responsesUsage, startOpenAiUpstream } from '../support/responses-upstream.js';
import { tempStateDir } from '../support/test-proxy.js';
import { serve } from './serve-session.js';

const CASES = 240;
const TURN_EVERY = 20;
const MASK = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);

/** A valid `response.create` message, as Codex sends it. */
function validMessage(n: number): Buffer {
  const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: `fuzz ${n}` }] }];
  return Buffer.from(JSON.stringify({ type: 'response.create', model: 'gpt-test', stream: true, input, store: false }));
}

/** The bytes of one fuzz case, by its kind. */
const KINDS: Record<string, (r: SeededRandom, n: number) => Buffer> = {
  cut: (r, n) => {
    const frame = encodeFrame(OPCODE.text, validMessage(n), { mask: MASK });
    return frame.subarray(0, r.int(1, frame.length - 1));
  },
  unmasked: (_r, n) => encodeFrame(OPCODE.text, validMessage(n)),
  maskedWrong: (r, n) => {
    const frame = encodeFrame(OPCODE.text, validMessage(n), { mask: MASK });
    // The payload as if masked with another key: bytes flipped after masking.
    for (let i = 0; i < r.int(1, 8); i++) {
      const at = r.int(6, frame.length - 1);
      frame[at] = (frame[at] ?? 0) ^ r.int(1, 255);
    }
    return frame;
  },
  oversized: (r) => {
    const head = Buffer.alloc(14);
    head[0] = 0x80 | OPCODE.text;
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(r.chance(0.5) ? 2n ** 62n : BigInt(64 * 1024 * 1024 + r.int(1, 1000)), 2);
    MASK.copy(head, 10);
    return Buffer.concat([head, randomBytes(r.int(0, 4096))]);
  },
  badJson: (r, n) => {
    const text = r.pick([
      '{',
      'null',
      '[]',
      '{"type":"response.create","input":',
      '{"type":"response.create","input":"x"}',
      `{"type":${n}}`,
      'response.create',
    ]);
    return encodeFrame(OPCODE.text, Buffer.from(text), { mask: MASK });
  },
  badUtf8: () => encodeFrame(OPCODE.text, Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), { mask: MASK }),
  reserved: (r, n) => {
    const frame = encodeFrame(OPCODE.text, validMessage(n), { mask: MASK });
    if (r.chance(0.5)) frame[0] = (frame[0] ?? 0) | (0x10 << r.int(0, 2));
    else frame[0] = ((frame[0] ?? 0) & 0xf0) | r.pick([3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf]);
    return frame;
  },
  fragments: (r, n) => {
    const payload = validMessage(n);
    const half = r.int(1, payload.length - 1);
    const first = encodeFrame(OPCODE.text, payload.subarray(0, half), { mask: MASK, fin: false });
    const rest = encodeFrame(OPCODE.continuation, payload.subarray(half), { mask: MASK });
    return r.pick([
      rest, // a continuation with nothing to continue
      Buffer.concat([first, first]), // a new message before the last ended
      Buffer.concat([first, encodeFrame(OPCODE.ping, randomBytes(126), { mask: MASK })]), // a control frame over 125 bytes
      first, // a message never finished
    ]);
  },
  noise: (r) => randomBytes(r.int(1, 2048)),
};

/** Opens a raw WebSocket to the proxy, writes `bytes`, ends its side and waits until the connection is gone. */
async function fuzzSocket(port: number, bytes: Buffer): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  const key = randomBytes(16).toString('base64');
  socket.write(
    `GET /v1/responses HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\n\r\n`,
  );
  await new Promise<void>((resolve, reject) => {
    let head = '';
    const onData = (d: Buffer): void => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (!head.startsWith('HTTP/1.1 101')) reject(new Error(head.split('\r\n')[0]));
      else resolve();
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
  socket.on('data', () => undefined);
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(bytes);
  socket.end();
  await closed;
}

async function healthy(url: string): Promise<boolean> {
  return fetch(`${url}/_ctxshed/health`).then(
    (res) => res.status === 200,
    () => false,
  );
}

describe('the Responses WebSocket relay under fuzzed frames', () => {
  it('should never die and never make a valid message invalid', async () => {
    const upstream = await startOpenAiUpstream(() => ({
      kind: 'response',
      output: [functionCall('exec_command', { cmd: 'cat file.txt' })],
      usage: responsesUsage(1000, 0),
    }));
    const dir = await tempStateDir('ctxshed-websocket-fuzz-');
    // A window no turn comes near: the turns go upstream as sent, so each can be compared byte for byte.
    const served = await serve(['--state', dir, '--upstream', upstream.baseUrl.replace(/\/v1$/, ''), '--window', '10000000']);
    const proxy = { url: served.url, port: Number(new URL(served.url).port) };
    const client = new OpenAiScriptedClient(proxy.url, 'responses', () => 2000, 'websocket');
    const r = seededRandom(41);
    const kinds = Object.keys(KINDS);
    const byKind = new Map<string, number>();
    let deaths = 0;
    const statuses: number[] = [];
    try {
      for (let n = 0; n < CASES; n++) {
        const kind = kinds[n % kinds.length]!;
        byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
        // A refused connection is the proxy gone: the health route says so next.
        await fuzzSocket(proxy.port, KINDS[kind]!(r, n)).catch(() => undefined);
        if (!(await healthy(proxy.url))) deaths++;
        if (n % TURN_EVERY === 0)
          statuses.push(
            await client.turnOnce().then(
              (t) => t.status,
              () => 0,
            ),
          );
      }
    } finally {
      await client.closeSocket().catch(() => undefined);
      await served.stop();
      await upstream.close();
    }
    const received = upstream.requests.filter(isResponsesRequest).map((req) => req.body);
    // Each turn's body among what the upstream got, in order (a fuzzed message that parsed may be forwarded too).
    let at = 0;
    const invalid = client.sent.filter((body, i) => {
      while (at < received.length && !received[at]!.equals(body)) at++;
      return at++ >= received.length || statuses[i] !== 200;
    }).length;
    console.log(
      `websocket fuzz: ${CASES} cases (${[...byKind].map(([k, c]) => `${k} ${c}`).join(', ')}), ${statuses.length} valid turns; deaths ${deaths}, valid made invalid ${invalid}`,
    );

    expect(statuses.length).toBe(CASES / TURN_EVERY);
    expect(deaths).toBe(0);
    expect(invalid).toBe(0);
  }, 120_000);
});
