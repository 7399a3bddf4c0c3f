/**
 * The HTML of the documentation pages. Every URL is relative to `/openapi/`, so the pages keep
 * working behind a proxy that mounts the app under a prefix, and none leaves the server.
 */

/**
 * Swagger UI for the document at `openapi.json`.
 *
 * @example new HtmlResponse(swaggerUiPage("Enrollment API"))
 */
export function swaggerUiPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – Swagger UI</title>
<link rel="icon" type="image/png" href="assets/favicon-32x32.png">
<link rel="stylesheet" href="assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="assets/swagger-ui-bundle.js"></script>
<script>
SwaggerUIBundle({ url: "openapi.json", dom_id: "#swagger-ui", deepLinking: true, validatorUrl: null });
</script>
</body>
</html>
`;
}

/**
 * Redoc for the document at `openapi.json`.
 *
 * @example new HtmlResponse(redocPage("Enrollment API"))
 */
export function redocPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – ReDoc</title>
<link rel="icon" type="image/png" href="assets/favicon-32x32.png">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<div id="redoc"></div>
<script src="assets/redoc.standalone.js"></script>
<script>
Redoc.init("openapi.json", {}, document.getElementById("redoc"));
</script>
</body>
</html>
`;
}

/** Text safe inside HTML elements and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
