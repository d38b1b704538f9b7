/** The thin `node:http` adapter around the handler: bind 127.0.0.1, serve, stop cleanly. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServedMetrics } from '../metrics/metrics.js';
import type { StateDir } from '../state/layout.js';
import { FsStore, fsStore, type ConversationStore } from '../store/index.js';
import type { PromMetrics } from '../metrics/prom-metrics.js';
import { WIRE_FLUSH_DELAY_MS, WireLog } from '../state/wire-log.js';
import { EpochEngine, type EngineOptions, type OriginalChange } from '../rescue/index.js';
import { createUpstreamAgents } from './agents.js';
import { createClassifierCall } from './classifier-call.js';
import { createProxyHandler, type ProxyHandler } from './handler.js';
import { BodyBudget } from './body-budget.js';
import { healthDescriber } from './health-route.js';
import { isLoopbackBind } from './loopback.js';
import { OwnerEngines } from './owner-engines.js';
import { hasOwnerRule, type OwnerRule } from './owner-rule.js';
import { packageVersion } from './package-version.js';
import { StateHealth } from './state-health.js';
import { ensureOwnerKey } from '../state/owner-key.js';
import { DEFAULT_BODY_SHARE_BYTES, DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, type ProxySettings } from './transport-settings.js';
import { answerUpgrade } from './websocket/answer-upgrade.js';
import type { OpenSocket } from './websocket/serve-socket.js';

/** How often an idle proxy drops the rewrite memos of idle conversations (requests prune too). */
export const MEMO_PRUNE_INTERVAL_MS = 60_000;

/** The loopback address, the proxy's default bind (docs/design.md "The proxy's contract with the client"). */
export const LOOPBACK = '127.0.0.1';

/** A running proxy. */
export interface RunningProxy {
  /** `http://127.0.0.1:<port>`: the ANTHROPIC_BASE_URL to give the client. */
  readonly url: string;
  readonly port: number;
  /** The epoch engine it runs (its conversations, for status and tests). */
  readonly engine: EpochEngine;
  /** What it counts, served at `/_ctxshed/metrics` (docs/metrics.md). */
  readonly metrics: ServedMetrics;
  /** Stops accepting, lets in-flight requests finish, flushes the wire log. */
  close(): Promise<void>;
}

/** What a proxy may be handed besides its settings; each has a default. */
export interface ProxyOptions {
  /** The clock for epoch and wire records. */
  readonly now?: () => Date;
  /** Where it counts; by default a fresh Prometheus registry of its own (metrics/prom-metrics.ts). */
  readonly metrics?: ServedMetrics;
  /** How long a wire line may wait to be written with the next ones (state/wire-log.ts); 0 writes each at once. */
  readonly wireFlushDelayMs?: number;
  /** Learn of other processes' epochs from a watch on the records (true, the default) or a stat per request. */
  readonly watchRecords?: boolean;
  /** Where its lines for a person go (a failed upstream request, the state's health); stderr by default. */
  readonly log?: (line: string) => void;
  /** Where records and originals are kept (src/store/); the state directory by default. */
  readonly store?: ConversationStore;
  /** This replica's name, a const label `replica` on every metric; none by default. */
  readonly replicaName?: (port: number) => string;
  /** The address to bind; 127.0.0.1 by default. Anything but loopback needs `ownerRule` (docs/team.md "The bind rule"). */
  readonly host?: string;
  /** Who owns a request (owner-rule.ts); absent: one user, owner `''`. */
  readonly ownerRule?: OwnerRule;
}

/** Starts a proxy on 127.0.0.1:`port` (0 picks a free one). Rejects when it cannot listen. */
export async function startProxy(settings: ProxySettings, state: StateDir, port: number, options: ProxyOptions = {}): Promise<RunningProxy> {
  const host = options.host ?? LOOPBACK;
  if (!isLoopbackBind(host) && !hasOwnerRule(options.ownerRule)) {
    throw new Error(`refusing to bind ${host}: beyond loopback, an owner rule (--owner-from credential or --owner-header) must be on`);
  }
  const now = options.now ?? (() => new Date());
  const startedAt = performance.now();
  const prom = options.metrics === undefined ? await loadPromMetrics() : undefined;
  const metrics = options.metrics ?? (prom as ServedMetrics);
  const log = options.log ?? writeStderrLine;
  const wire = new WireLog(state.wirePath, options.wireFlushDelayMs ?? WIRE_FLUSH_DELAY_MS);
  const agents = createUpstreamAgents();
  const health = new StateHealth(
    (note) => wire.append(note),
    () => now().toISOString(),
    { log, countFailure: () => metrics.stateWriteFailed() },
  );
  const describeHealth = healthDescriber({ version: await packageVersion(), startedAt, stateDir: state.root, health });
  // `--labels model` gets ctxshed's own call to the same upstream; local labels need none.
  const classify = settings.engine.rescue.labels === 'model' ? createClassifierCall(settings.transport.upstream, agents) : undefined;
  const ownerRule = options.ownerRule;
  const { engine, owners } = makeEngines(settings, state, ownerRule, {
    now,
    onStateFailure: (error: unknown) => health.failed(error),
    onOriginalChanged: (change) => noteOriginalChanged(change, { wire, log, now }),
    metrics,
    watchRecords: options.watchRecords ?? true,
    // A proxy's directory store shares each conversation's reading with the other proxies on it.
    store: sharingReadings(options.store ?? fsStore(state)),
    ...(classify === undefined ? {} : { classify }),
  });
  const { maxBodyBytesInFlight, bodyShareBytes } = settings.transport;
  const bodyBudget = new BodyBudget(maxBodyBytesInFlight ?? DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, bodyShareBytes ?? DEFAULT_BODY_SHARE_BYTES);
  // Made with the state directory, read by whoever may read its files: the restore routes' key when no owner rule is on.
  const ownerKey = await ensureOwnerKey(state.root);
  const deps = {
    ownerKey,
    transport: settings.transport,
    engine,
    wire,
    health,
    agents,
    now,
    metrics,
    describeHealth,
    log,
    bodyBudget,
    ...(owners === undefined || ownerRule === undefined ? {} : { owners, ownerRule }),
  };
  const handler = createProxyHandler(deps);
  const inFlight = new Set<Promise<void>>();
  const sockets = new Set<OpenSocket>();
  const server = createServer(handler, inFlight, (req, socket, head) => answerUpgrade(deps, req, socket, head, sockets));
  await listen(server, port, host);
  server.on('error', () => undefined);
  // unref: the pruning alone never keeps the process alive.
  const engines = (): EpochEngine[] => owners?.all() ?? [engine];
  const pruner = setInterval(() => {
    for (const one of engines()) one.pruneMemos();
  }, MEMO_PRUNE_INTERVAL_MS);
  pruner.unref();
  const bound = (server.address() as AddressInfo).port;
  if (options.replicaName !== undefined) prom?.registry.setDefaultLabels({ replica: options.replicaName(bound) });
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${bound}`,
    port: bound,
    engine,
    metrics,
    close: () => {
      closing ??= (async () => {
        clearInterval(pruner);
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await Promise.allSettled([...inFlight, ...[...sockets].map((s) => s.shutDown())]);
        server.closeAllConnections();
        await stopped;
        await wire.close().catch(() => undefined);
        for (const one of engines()) {
          await one.settle();
          one.close();
        }
        agents.http.destroy();
        agents.https.destroy();
      })();
      return closing;
    },
  };
}

/**
 * The single-user engine, and under an owner rule one per owner (owner-engines.ts) over that
 * owner's namespace of the store, each told to write a gateway's stubs, which name the restore
 * tool, not a path on the gateway's disk (docs/team.md). The proxy learns of other proxies'
 * epochs from a watch on the records (a state directory) or the record's version (Postgres).
 */
function makeEngines(
  settings: ProxySettings,
  state: StateDir,
  ownerRule: OwnerRule | undefined,
  options: EngineOptions,
): { readonly engine: EpochEngine; readonly owners: OwnerEngines | undefined } {
  const gateway = hasOwnerRule(ownerRule);
  const engineSettings = gateway ? { ...settings.engine, stubs: { ...settings.engine.stubs, gateway: true } } : settings.engine;
  const engine = new EpochEngine(state, engineSettings, options);
  const owners = gateway ? new OwnerEngines(state, engine, (own, store) => new EpochEngine(own, engineSettings, { ...options, store })) : undefined;
  return { engine, owners };
}

// prom-client takes a noticeable while to load; only a command that starts a proxy pays for it,
// not `ls`, `status` or `stats`.
async function loadPromMetrics(): Promise<PromMetrics> {
  const { PromMetrics } = await import('../metrics/prom-metrics.js');
  return new PromMetrics({ processMetrics: true });
}

/**
 * An original that is not what its name says: a note in the wire log (`status` and `verify` show
 * it) and a line for a person (stderr under `serve`, nowhere under `rescue`). Never rejects.
 */
function noteOriginalChanged(change: OriginalChange, out: { wire: WireLog; log: (line: string) => void; now: () => Date }): void {
  const detail = `${change.problem}: ${change.detail}; no stub names it while it stays so (ctxshed verify)`;
  out.wire.append({ t: out.now().toISOString(), note: 'original_changed', detail }).catch(() => undefined);
  out.log(`ctxshed: an original is not what its name says: ${detail}`);
}

/** The store a proxy runs on: a directory store sharing readings (Postgres shares them already). */
function sharingReadings(store: ConversationStore): ConversationStore {
  return store instanceof FsStore ? store.withSharedReadings() : store;
}

function writeStderrLine(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** The HTTP server: each request to the handler, kept in `inFlight` until it is done. */
function createServer(
  handler: ProxyHandler,
  inFlight: Set<Promise<void>>,
  onUpgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void,
): http.Server {
  const server = http.createServer((req, res) => {
    const job = handler(req, res);
    inFlight.add(job);
    void job.finally(() => inFlight.delete(job));
  });
  // Codex tries `ws://<base>/responses` first: the Responses WebSocket is served, each message
  // sent on the request path as a POST; any other upgrade is answered 426 (websocket/answer-upgrade.ts).
  server.on('upgrade', onUpgrade);
  // Long SSE streams and slow uploads are normal for this API; the upstream timeouts govern.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
  return server;
}

/** The host part of the proxy's URL: loopback as ever; an IPv6 address in brackets; a wildcard bind is reached on loopback from here. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return LOOPBACK;
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
