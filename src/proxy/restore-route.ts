/**
 * The restore routes (docs/team.md "Restores over the gateway"): `GET /_ctxshed/v1/restore` and
 * `GET /_ctxshed/v1/spans`, what `ctxshed mcp --gateway URL` reads through. Each serves the
 * asking owner's namespace of the store only (the state directory or Postgres,
 * restore/store-restore.ts), the owner found by the same rule as a model request
 * (owner-rule.ts). A handle that owner has nothing under gets one fixed 404, whether the handle
 * exists for no one or for another owner: the answer names nothing.
 */
import { GATEWAY_RESTORE_PATH, GATEWAY_UNKNOWN_HANDLE } from '../core/gateway-routes.js';
import { errorText } from '../errors.js';
import type { EpochEngine } from '../rescue/index.js';
import { encodeOutcome } from '../restore/restore-wire.js';
import { listFromStore, restoreFromStore } from '../restore/store-restore.js';
import type { ConversationStore } from '../store/index.js';
import { sendApiError } from './api-error.js';
import type { EdgeRequest } from './edge.js';
import type { OwnerEngines } from './owner-engines.js';
import { ownerOf, type OwnerRule } from './owner-rule.js';
import type { Reply } from './reply.js';

/** What the routes read: the owner rule, and each owner's namespace of the store. */
export interface GatewayRouteDeps {
  readonly engine?: EpochEngine;
  readonly ownerRule?: OwnerRule;
  readonly owners?: OwnerEngines;
}

/** Answers one restore route. Never rejects. */
export async function answerGatewayRoute(req: EdgeRequest, res: Reply, path: string, deps: GatewayRouteDeps): Promise<void> {
  const owner = ownerOf(req.headers, deps.ownerRule, req.rawHeaders);
  if (owner.kind === 'missing') {
    sendApiError(res, 401, 'authentication_error', owner.message);
    return;
  }
  try {
    const store = await storeOf(deps, owner.ownerId);
    const query = new URL(req.url, 'http://gateway.invalid').searchParams;
    if (path === GATEWAY_RESTORE_PATH) {
      const outcome = store === undefined ? undefined : await restoreFromStore(store, query.get('handle') ?? '');
      if (outcome === undefined || outcome.kind === 'unknown') {
        sendApiError(res, 404, 'not_found_error', GATEWAY_UNKNOWN_HANDLE);
        return;
      }
      sendJson(res, outcome.kind === 'invalid' ? 400 : 200, encodeOutcome(outcome));
      return;
    }
    const list = store === undefined ? { conversations: [], unreadable: [] } : await listFromStore(store);
    sendJson(res, 200, JSON.stringify(list));
  } catch (error) {
    sendApiError(res, 500, 'api_error', `cannot answer ${path}: ${errorText(error)}`);
  }
}

/** The owner's namespace of the store: the default engine's for `''`, else the owner's if it has one (a read never makes one). */
async function storeOf(deps: GatewayRouteDeps, ownerId: string): Promise<ConversationStore | undefined> {
  if (ownerId === '') return deps.engine?.store;
  return deps.owners?.storeFor(ownerId);
}

function sendJson(res: Reply, status: number, text: string): void {
  const body = Buffer.from(text, 'utf8');
  res.answerBytes(status, { 'content-type': 'application/json', 'content-length': String(body.length), 'cache-control': 'no-store' }, body);
}
