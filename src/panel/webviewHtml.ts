import { randomBytes } from "node:crypto";

export interface WebviewAssets {
  /** The webview's cspSource: the only origin styles, fonts and the script may come from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  /** The codicon font's stylesheet (media/dist/codicon.css, with the font beside it). */
  codiconsUri: string;
  /** media/codeBlocks.css: code block header, toolbar and highlighting colors. */
  codeBlockStyleUri: string;
  /** VS Code's display language ("en", "zh-cn"): screen readers and font choice follow it. */
  language?: string;
}

/**
 * The panel's page. The CSP allows nothing by default; the script runs by a fresh crypto-random nonce
 * (the highlighter script, media/dist/highlighter.js, is added later by that script with the same nonce),
 * styles come from the extension's media only, and images only as local or data URIs (the renderer never
 * loads images from the model).
 */
export function webviewHtml(assets: WebviewAssets, nonce = randomBytes(18).toString("base64")): string {
  const csp = [
    "default-src 'none'",
    `img-src ${assets.cspSource} data:`,
    `style-src ${assets.cspSource}`,
    `font-src ${assets.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="${/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(assets.language ?? "") ? assets.language : "en"}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${assets.codiconsUri}">
<link rel="stylesheet" href="${assets.styleUri}">
<link rel="stylesheet" href="${assets.codeBlockStyleUri}">
<title>Relay Chat</title>
</head>
<body data-initial-focus>
<div id="app"></div>
<script nonce="${nonce}" src="${assets.scriptUri}"></script>
</body>
</html>`;
}
