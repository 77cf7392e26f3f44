import type Router from '@koa/router';
import type { AppDeps, AppState } from '../context';
import { renderDocsPage } from './docsPage';
import { buildOpenApiDocument } from './document';

/** Public, like any API reference: neither route reveals more than the schemas. */
export function registerDocsRoutes(router: Router<AppState>, deps: AppDeps): void {
  const document = buildOpenApiDocument(deps.config.publicBaseUrl);
  const page = renderDocsPage(document);

  router.get('/openapi.json', (ctx) => {
    ctx.body = document;
  });

  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    ctx.body = page;
  });
}
