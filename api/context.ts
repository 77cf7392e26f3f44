import type { Client } from '@temporalio/client';
import type Koa from 'koa';
import type { Mailer } from '../activities/email/smtpMailer';
import type { Config } from '../config/env';
import type { Sql } from '../db/client';
import type { ApiKeyCache } from './apiKeyCache';
import type { InventoryCapGate } from './inventoryCapGate';
import type { AuthFailureMemory } from '../domain/security/authFailureMemory';
import type { RequestLeases } from '../domain/security/requestLeases';
import type { ChainRegistry } from '../domain/chains/chainRegistry';
import type { PaymentOffer } from '../domain/session/payablePairs';
import type { Mode } from '../domain/wire/session';
import type { Logger } from '../observability/logger';

export interface AppDeps {
  config: Config;
  sql: Sql;
  temporal: Client;
  logger: Logger;
  /** The chains and token contracts this deployment pays in (RPC_URLS_*, TOKEN_*, CHAIN_ID_*), as the worker and indexers see them. */
  registry: ChainRegistry;
  /** SETTLEMENT_LIVE_ROUTES and the indexed chains: with the registry, which pairs are offered (domain/session/payablePairs.ts). */
  offer: PaymentOffer;
  /** True once the server is draining before it closes: /readyz then answers 503 (set by api/server.ts). */
  draining?: () => boolean;
  /** Injected so tests can pin time; the service uses the wall clock. */
  now?: () => Date;
  /** Made once per app by createApp, so every route's authentication sees the same blocked addresses. */
  authFailures: AuthFailureMemory;
  /** Made once per app like authFailures; api/server.ts makes it listen for key changes. */
  apiKeys: ApiKeyCache;
  /** Made once per app like authFailures: one lease of an API key's rate-limit budget per replica, whatever the route. */
  rateLimitLeases: RequestLeases;
  /** Made by createApp from SMTP_URL: sends a refund's claim link to its customer; none, no e-mail is sent. */
  mailer?: Mailer;
  /** Made once per app from INVENTORY_CAPS, so a cap's crossing is logged once: which held pairs a new session is not offered. */
  inventoryCaps: InventoryCapGate;
}

/** What a process hands the API; the app makes the rest itself. */
export type ApiDeps = Omit<AppDeps, 'authFailures' | 'apiKeys' | 'rateLimitLeases' | 'mailer' | 'inventoryCaps'>;

/** Who an API-key request speaks for: one merchant, in one mode. */
export interface MerchantAuth {
  merchantId: string;
  mode: Mode;
  keyId: string;
}

/** Who a session-token request speaks for: the hosted page of exactly one session. */
export interface SessionAuth {
  sessionId: string;
  merchantId: string;
  mode: Mode;
}

export interface AppState {
  readonly requestId: string;
  /** The request's logger, bound to its id and whatever bindLog added (api/requestState.ts). */
  readonly log: Logger;
  /** Adds fields to every line the request logs from now on. */
  bindLog(fields: Record<string, string>): void;
  auth?: MerchantAuth;
  session?: SessionAuth;
}

export type AppContext = Koa.ParameterizedContext<AppState>;

/** The API key's merchant; a route that calls this without apiKeyAuth in front of it is a programming error. */
export function merchantAuth(ctx: AppContext): MerchantAuth {
  if (!ctx.state.auth) throw new Error(`${ctx.method} ${ctx.path} must run after apiKeyAuth`);
  return ctx.state.auth;
}

/** The session token's session; a route that calls this without sessionTokenAuth in front of it is a programming error. */
export function sessionAuth(ctx: AppContext): SessionAuth {
  if (!ctx.state.session) throw new Error(`${ctx.method} ${ctx.path} must run after sessionTokenAuth`);
  return ctx.state.session;
}
