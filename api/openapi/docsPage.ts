// The /docs page: the OpenAPI document rendered to one self-contained HTML page on the server, with
// inline CSS and no script, so it works offline and under a strict Content-Security-Policy.
import type { OpenApiDocument, OpenApiOperation } from './document';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The descriptions use `code` spans only; everything else is escaped. */
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const schemaBlock = (schema: unknown) => `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;

const anchor = (method: string, path: string) => `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');

function securityText(op: OpenApiOperation): string {
  if (op.security.length === 0) return 'none';
  const names = new Set(op.security.flatMap((requirement) => Object.keys(requirement)));
  const alternatives: string[] = [];
  if (names.has('apiKey')) alternatives.push('<code>x-api-key</code>');
  if (names.has('sessionBearer')) alternatives.push('session token (<code>Authorization: Bearer</code> or <code>?token=</code>)');
  return `${alternatives.join(' or ')}, plus <code>x-service-user-type: checkout</code>`;
}

function renderOperation(method: string, path: string, op: OpenApiOperation): string {
  const parameters = op.parameters.length
    ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th><th>Description</th></tr>${op.parameters
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(
              JSON.stringify(p.schema),
            )}</code></td><td>${inline(p.description ?? '')}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const body = op.requestBody
    ? `<h4>Request body (application/json)</h4>${schemaBlock(op.requestBody.content['application/json'].schema)}`
    : '';
  const responses = Object.entries(op.responses)
    .map(([status, response]) => {
      const content = Object.entries(response.content ?? {})[0];
      const schema = content && !('$ref' in content[1].schema) ? schemaBlock(content[1].schema) : '';
      return `<details${status.startsWith('2') ? ' open' : ''}><summary><b>${status}</b> ${inline(response.description)}</summary>${schema}</details>`;
    })
    .join('');
  return `<section id="${anchor(method, path)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p><b>${inline(op.summary)}.</b> ${inline(op.description)}</p>
<p>Authentication: ${securityText(op)}</p>
${parameters}${body}<h4>Responses</h4>${responses}
</section>`;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1rem 2rem;color:#1d2330}
h1{margin-bottom:.2rem}h2{border-bottom:1px solid #ccd;padding-bottom:.2rem;margin-top:2.5rem}
section{border:1px solid #dde;border-radius:6px;padding:.2rem 1rem 1rem;margin:1rem 0}
pre{background:#f5f6f8;padding:.6rem;overflow:auto;font-size:13px;max-height:28rem}
table{border-collapse:collapse;width:100%;font-size:14px}td,th{border:1px solid #dde;padding:.25rem .4rem;text-align:left;vertical-align:top}
td code{white-space:pre-wrap;word-break:break-word}.method{display:inline-block;min-width:3.5rem;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:.1rem .3rem}
.get{background:#2f6fb3}.post{background:#2f8a4c}nav li{list-style:none}nav ul{padding-left:0}`;

export function renderDocsPage(doc: OpenApiDocument): string {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as OpenApiOperation })),
  );
  const byTag = doc.tags.map((tag) => ({ tag: tag.name, ops: operations.filter((o) => o.op.tags.includes(tag.name)) }));
  const nav = byTag
    .map(
      ({ tag, ops }) =>
        `<li><b>${escapeHtml(tag)}</b><ul>${ops
          .map((o) => `<li><a href="#${anchor(o.method, o.path)}">${o.method.toUpperCase()} ${escapeHtml(o.path)}</a></li>`)
          .join('')}</ul></li>`,
    )
    .join('');
  const sections = byTag
    .map(({ tag, ops }) => `<h2>${escapeHtml(tag)}</h2>${ops.map((o) => renderOperation(o.method, o.path, o.op)).join('\n')}`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(doc.info.title)} <small>v${escapeHtml(doc.info.version)}</small></h1>
<p>${inline(doc.info.description)}</p>
<p>Server: <code>${escapeHtml(doc.servers[0]?.url ?? '')}</code> · Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${doc.openapi})</p>
<h2>Errors</h2><p>Every error is <code>{ "error": string, "details"?: { "validation_errors": ["field: message"] } }</code>:</p>
${schemaBlock(doc.components.schemas.Error)}
<nav><h2>Endpoints</h2><ul>${nav}</ul></nav>
${sections}
</body></html>
`;
}
