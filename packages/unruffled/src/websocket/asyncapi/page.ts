import { escapeHtml } from "../../openapi/docs-pages/html.ts";
import type { AsyncApiDocument } from "./generate.ts";

type Json = Record<string, any>;

/**
 * The AsyncAPI document as one self-contained HTML page, rendered on the server: each channel with
 * its address, parameters, upgrade query and headers, security, and the messages each way with their
 * schemas. No script, no stylesheet, no font: the page loads nothing, from the network or the app.
 *
 * @example new HtmlResponse(asyncApiPage(generateAsyncApi(app)))
 */
export function asyncApiPage(document: AsyncApiDocument): string {
  const info = document.info as Json;
  const operations = Object.values(document.operations as Json) as Json[];
  const messages = (document.components as Json).messages as Json;
  const schemas = ((document.components as Json).schemas ?? {}) as Json;
  const channels = Object.entries(document.channels as Json)
    .map(([name, channel]) => {
      const of = (action: string) =>
        operations
          .filter(
            (operation) => operation.action === action && operation.channel.$ref === `#/channels/${name}`,
          )
          .flatMap((operation) => operation.messages as Json[])
          .map((ref) => String(ref.$ref).split("/").pop()!);
      const security = operations.find((operation) => operation.channel.$ref === `#/channels/${name}`)
        ?.security as Json[] | undefined;
      return `<section id="channel-${escapeHtml(name)}">
<h2><code>${escapeHtml(channel.address)}</code> <small>${escapeHtml(name)}</small></h2>
${channel.summary === undefined ? "" : `<p>${escapeHtml(channel.summary)}</p>`}
${channel.description === undefined ? "" : `<p>${escapeHtml(channel.description)}</p>`}
${
  channel.parameters === undefined
    ? ""
    : `<p>Path parameters: ${Object.keys(channel.parameters)
        .map((key) => `<code>${escapeHtml(key)}</code>`)
        .join(", ")}</p>`
}
${block("Upgrade query", channel.bindings.ws.query)}${block("Upgrade headers", channel.bindings.ws.headers)}
${security === undefined ? "" : `<p>Security: ${security.map((scheme) => `<code>${escapeHtml(scheme.$ref === undefined ? `${scheme.type} ${JSON.stringify(scheme.scopes ?? [])}` : String(scheme.$ref).split("/").pop()!)}</code>`).join(", ")}</p>`}
<h3>The client sends</h3>${of("receive")
        .map((message) => messageHtml(message, messages))
        .join("")}
<h3>The server sends</h3>${of("send")
        .map((message) => messageHtml(message, messages))
        .join("")}
</section>`;
    })
    .join("\n");
  const title = `${info.title} ${info.version} – WebSockets (AsyncAPI ${document.asyncapi})`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
section { border-top: 1px solid #ccc; padding-top: 1rem; }
pre { background: #f5f5f5; padding: .75rem; overflow-x: auto; font-size: .85rem; }
small { color: #666; font-weight: normal; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${info.description === undefined ? "" : `<p>${escapeHtml(info.description)}</p>`}
<p>The document: <a href="asyncapi.json">asyncapi.json</a>.</p>
${channels}
${
  Object.keys(schemas).length === 0
    ? ""
    : `<section><h2>Schemas</h2>${Object.entries(schemas)
        .map(
          ([name, schema]) =>
            `<h3 id="schema-${escapeHtml(name)}">${escapeHtml(name)}</h3><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`,
        )
        .join("")}</section>`
}
</body>
</html>
`;
}

function messageHtml(name: string, messages: Json): string {
  const message = messages[name] as Json;
  return `<h4>${escapeHtml(name)}</h4><pre>${escapeHtml(JSON.stringify(message.payload, null, 2))}</pre>`;
}

function block(title: string, schema: Json | undefined): string {
  if (schema === undefined) return "";
  return `<p>${escapeHtml(title)}:</p><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;
}
