import type Koa from 'koa';
import { clientAddressOf } from '../../domain/security/clientAddress';
import type { AppState } from '../context';

/** Sets ctx.ip to the client's address (domain/security/clientAddress.ts), so every later use agrees on it. */
export function clientAddress(trustedProxies: readonly string[]): Koa.Middleware<AppState> {
  return (ctx, next) => {
    ctx.request.ip = clientAddressOf(ctx.socket.remoteAddress ?? '', ctx.get('x-forwarded-for') || undefined, trustedProxies);
    return next();
  };
}
