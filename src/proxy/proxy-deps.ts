/** What the proxy's per-request logic is given (handle-request.ts); tests hand in small real ones. */
import type { ServedMetrics } from '../metrics/metrics.js';
import type { EpochEngine } from '../rescue/index.js';
import type { UpstreamAgents } from './agents.js';
import type { BodyBudget } from './body-budget.js';
import type { DescribeHealth } from './health-route.js';
import type { OwnerEngines } from './owner-engines.js';
import type { OwnerRule } from './owner-rule.js';
import type { StateHealth } from './state-health.js';
import type { TransportSettings } from './transport-settings.js';

/** The proxy's dependencies, one set per process (start-proxy.ts). */
export interface ProxyDeps {
  readonly transport: TransportSettings;
  /** The single-user owner's engine (owner `''`), over the state root. */
  readonly engine: EpochEngine;
  /** Who owns a request (owner-rule.ts); absent or `none`: one user, owner `''`. */
  readonly ownerRule?: OwnerRule;
  /** Each owner's engine (owner-engines.ts); absent, every request is owner `''`'s. */
  readonly owners?: OwnerEngines;
  /** The state directory's owner key (state/owner-key.ts): with no owner rule, the restore routes ask for it; absent, they answer no one. */
  readonly ownerKey?: string;
  readonly wire: { append(record: object): Promise<void> };
  readonly health: StateHealth;
  /** The upstream's node:http and node:https agents (agents.ts): every forward goes through them. */
  readonly agents: UpstreamAgents;
  readonly now: () => Date;
  /** What each request is counted into, and what `/_ctxshed/metrics` serves. */
  readonly metrics: ServedMetrics;
  /** What `/_ctxshed/health` reports (health-route.ts); absent, it says only that the proxy serves. */
  readonly describeHealth?: DescribeHealth;
  /** The request body bytes all connections may hold at once (body-budget.ts); absent, no cap. */
  readonly bodyBudget?: BodyBudget;
  /** Where a line for a person goes (stderr in a running proxy: a failed upstream request); absent, nowhere. */
  readonly log?: (line: string) => void;
}
