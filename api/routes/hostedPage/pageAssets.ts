// The hosted page's script and stylesheet, bundled from page/ with esbuild's JS API once per process, when
// the API starts. Bundling at start-up rather than in a build step keeps one source of truth (no stale
// bundle can be served, nothing to rebuild after editing page/) for the ~100 ms it costs; the result is
// kept in memory with its gzip form, so serving it costs nothing.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

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

const PAGE_DIR = fileURLToPath(new URL('../../../page/', import.meta.url));

let bundled: Promise<PageAssets> | undefined;

/** Started by the first caller (the app, at construction) and shared by every app in the process. */
export function pageAssets(): Promise<PageAssets> {
  bundled ??= bundle();
  return bundled;
}

async function bundle(): Promise<PageAssets> {
  // Imported here, not at the top: only processes that serve the page need esbuild.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: { checkout: `${PAGE_DIR}src/main.ts`, styles: `${PAGE_DIR}styles.css` },
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
    if (!file) throw new Error(`esbuild produced no ${suffix} for the checkout page`);
    const body = Buffer.from(file.contents);
    return { body, gzip: gzipSync(body, { level: 9 }), version: createHash('sha256').update(body).digest('hex').slice(0, 16), contentType };
  };
  return { script: output('checkout.js', 'text/javascript; charset=utf-8'), styles: output('styles.css', 'text/css; charset=utf-8') };
}
