/**
 * The restore routes (docs/team.md "Restores over the gateway"): `GET /_ctxshed/v1/restore` and
 * `GET /_ctxshed/v1/spans`, what `ctxshed mcp --gateway URL` reads through. Each serves the
 * asking owner's namespace of the store only (the state directory or Postgres,
 * restore/store-restore.ts), the owner found by the same rule as a model request
 * (owner-rule.ts), or with no rule the person who holds the state directory's owner key. A
 * handle that owner has nothing under gets one fixed 404, whether the handle exists for no one or
 * for another owner: the answer names nothing.
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
import { hasOwnerRule, ownerOf, type OwnerOf, type OwnerRule } from './owner-rule.js';
import { headerLines } from './header-lines.js';
import { isOwnerKey, OWNER_KEY_FILE_NAME, OWNER_KEY_HEADER } from '../state/owner-key.js';
import type { Reply } from './reply.js';

/** What the routes read: the owner rule, each owner's namespace of the store, and the state directory's owner key. */
export interface GatewayRouteDeps {
  readonly engine?: EpochEngine;
  readonly ownerRule?: OwnerRule;
  readonly owners?: OwnerEngines;
  /** `<state>/owner.key` (state/owner-key.ts): with no owner rule, the routes answer only a request carrying it; absent, none. */
  readonly ownerKey?: string;
}

/** Answers one restore route. Never rejects. */
export async function answerGatewayRoute(req: EdgeRequest, res: Reply, path: string, deps: GatewayRouteDeps): Promise<void> {
  const owner = routeOwner(req, deps);
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

/**
 * Who asks: under an owner rule, the owner it finds; with none, the person who started ctxshed,
 * who alone can read the owner key (0600 in the state directory), sent once in its header.
 * Loopback is not enough: any local user reaches 127.0.0.1 (issue 41).
 */
function routeOwner(req: EdgeRequest, deps: GatewayRouteDeps): OwnerOf {
  if (hasOwnerRule(deps.ownerRule)) return ownerOf(req.headers, deps.ownerRule, req.rawHeaders);
  const given = req.headers[OWNER_KEY_HEADER];
  const lines = headerLines(OWNER_KEY_HEADER, req.headers, req.rawHeaders);
  if (deps.ownerKey !== undefined && lines === 1 && typeof given === 'string' && isOwnerKey(deps.ownerKey, given)) return { kind: 'owner', ownerId: '' };
  const message = `refused: the restore routes answer only the person who started this ctxshed, with the key in ${OWNER_KEY_FILE_NAME} of its state directory in the ${OWNER_KEY_HEADER} header (ctxshed mcp --gateway sends it). Nothing was read.`;
  return { kind: 'missing', message };
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
