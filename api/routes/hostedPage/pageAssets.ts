// The hosted page's script and stylesheet, bundled from page/ with esbuild's JS API once per process, when
// the API starts. Bundling at start-up rather than in a build step keeps one source of truth (no stale
// bundle can be served, nothing to rebuild after editing page/) for the ~100 ms it costs; the result is
// kept in memory with its gzip form, so serving it costs nothing.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Logger } from '../../../observability/logger';
import { ServiceUnavailableError } from '../../errors';

export interface PageAsset {
  body: Buffer;
  gzip: Buffer;
  /** Content hash: the ETag, and the `?v=` the HTML links with so browsers may cache the asset for good. */
  version: string;
  contentType: string;
}

export interface PageAssets {
  script: PageAsset;
  styles: PageAsset;
}

export const PAGE_DIR = fileURLToPath(new URL('../../../page/', import.meta.url));

let bundled: Promise<PageAssets> | undefined;

/** Started by the first caller (the app, at construction) and shared by every app in the process. */
export function pageAssets(): Promise<PageAssets> {
  bundled ??= bundleAssets(`${PAGE_DIR}src/main.ts`, `${PAGE_DIR}styles.css`);
  return bundled;
}

/** One script and one stylesheet, each bundled with what it imports; shared with the merchant dashboard. */
export async function bundleAssets(scriptEntry: string, stylesEntry: string): Promise<PageAssets> {
  // Imported here, not at the top: only processes that serve the page need esbuild.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: { script: scriptEntry, styles: stylesEntry },
    outdir: 'page-out',
    bundle: true,
    minify: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    // Browsers of the last few years; :has() in the stylesheet is progressive (Safari 15.4+, Chrome 105+).
    target: ['chrome100', 'firefox100', 'safari15', 'edge100'],
    legalComments: 'none',
    logLevel: 'silent',
  });
  const output = (suffix: string, contentType: string): PageAsset => {
    const file = result.outputFiles.find((f) => f.path.endsWith(suffix));
    if (!file) throw new Error(`esbuild produced no ${suffix} for ${scriptEntry}`);
    const body = Buffer.from(file.contents);
    return { body, gzip: gzipSync(body, { level: 9 }), version: createHash('sha256').update(body).digest('hex').slice(0, 16), contentType };
  };
  return { script: output('script.js', 'text/javascript; charset=utf-8'), styles: output('styles.css', 'text/css; charset=utf-8') };
}

/**
 * The assets for serving: a bundling failure is logged once at start-up, and every request then answers
 * 503 with `unavailable` rather than a half-working page.
 */
export function assetsWhenReady(assets: Promise<PageAssets>, logger: Logger, unavailable: string): () => Promise<PageAssets> {
  assets.catch((error: unknown) => logger.error({ err: { message: (error as Error).message } }, `${unavailable}: bundling failed`));
  return async () => {
    try {
      return await assets;
    } catch {
      throw new ServiceUnavailableError(unavailable);
    }
  };
}
