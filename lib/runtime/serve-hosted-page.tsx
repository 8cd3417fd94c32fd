import type http from "node:http";
import { gzipSync } from "node:zlib";
import { renderToString } from "react-dom/server";
import { describePaymentPageTitle } from "@/components/hosted/payment-page-title";
import {
  STANDALONE_PROPS_ID,
  STANDALONE_ROOT_ID,
  StandalonePaymentPage,
  type StandalonePaymentProps,
  type StandalonePaymentView,
} from "@/components/hosted/standalone-payment-page";
import { DOCUMENT_BODY_CLASS } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { LOCALE_COOKIE, resolveLocale } from "@/lib/i18n/locales";
import { CATALOGUES, createTranslator } from "@/lib/i18n/translator";
import { escapeHtml } from "@/lib/html/escape-html";
import { log } from "@/lib/log";
import { loadHostedPaymentPageData } from "@/lib/services/hosted/payment-page-data";
import { HOSTED_ASSET_PATH, type HostedAsset, type HostedAssets } from "./hosted-assets";
import { HOSTED_PAGE_CONTENT_SECURITY_POLICY, securityHeaders } from "./security-headers.mjs";

/**
 * `/pay/<id>` answered by the node server before Next's router, as `/v1` is: the page rendered to
 * HTML here from the same components and loader as app/(hosted)/pay/[id], with a script of its own
 * (React and the page, without Next's client runtime) and the stylesheet, served from `/_hosted/`.
 */
export interface HostedPageServer {
  /** Answers the request and returns true when it is one of these pages or assets; false leaves it to Next. */
  handle(request: http.IncomingMessage, response: http.ServerResponse): boolean;
}

const PAYMENT_PAGE = /^\/pay\/([^/?#]+)\/?(?:\?.*)?$/;

/** The page's headers: the security headers of every page (next.config.mjs sends the same), with only this page's own scripts. */
export const HOSTED_PAGE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  // A payment page is the buyer's and changes with the invoice: never stored by a cache.
  "cache-control": "private, no-cache, no-store, max-age=0, must-revalidate",
  "x-robots-tag": "noindex, nofollow",
  ...securityHeaders(HOSTED_PAGE_CONTENT_SECURITY_POLICY),
  vary: "Accept-Encoding, Accept-Language, Cookie",
};

const STATUS_BY_VIEW: Record<StandalonePaymentView["kind"], number> = { payment: 200, not_found: 404, load_error: 500 };

export function createHostedPageServer(assets: HostedAssets): HostedPageServer {
  return {
    handle(request, response) {
      if (request.method !== "GET" && request.method !== "HEAD") return false;
      const target = request.url ?? "/";
      if (target.startsWith(HOSTED_ASSET_PATH)) {
        const asset = assets.find(target.slice(HOSTED_ASSET_PATH.length).split("?")[0]);
        if (!asset) return false;
        writeAsset(request, response, asset);
        return true;
      }
      const match = PAYMENT_PAGE.exec(target);
      if (!match) return false;
      void servePaymentPage(request, response, assets, safeDecode(match[1]));
      return true;
    },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function servePaymentPage(request: http.IncomingMessage, response: http.ServerResponse, assets: HostedAssets, invoiceId: string): Promise<void> {
  const locale = resolveLocale(readCookie(request.headers.cookie, LOCALE_COOKIE), request.headers["accept-language"]);
  let view: StandalonePaymentView;
  try {
    const data = await loadHostedPaymentPageData(getApiDeps(), invoiceId);
    view = data ? { kind: "payment", data } : { kind: "not_found" };
  } catch (error) {
    log.error("the payment page could not be loaded", { error });
    view = { kind: "load_error" };
  }
  try {
    const html = renderPaymentDocument(assets, { locale, messages: CATALOGUES[locale], view });
    writeCompressible(request, response, STATUS_BY_VIEW[view.kind], HOSTED_PAGE_HEADERS, Buffer.from(html, "utf8"));
  } catch (error) {
    log.error("the payment page could not be rendered", { error });
    if (response.headersSent) return void response.end();
    response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    response.end("The payment page could not be shown. Please reload it.");
  }
}

/** The whole document: head as the Next route's metadata gives it, the rendered page, its props. */
export function renderPaymentDocument(assets: HostedAssets, props: StandalonePaymentProps): string {
  const t = createTranslator(props.locale, props.messages);
  const title = `${describePaymentPageTitle(props.locale, t, props.view.kind === "payment" ? props.view.data : null)} · Gateway`;
  const body = renderToString(<StandalonePaymentPage {...props} />);
  return (
    `<!DOCTYPE html><html lang="${escapeHtml(props.locale)}"><head>` +
    `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title>` +
    `<meta name="description" content="Self-hosted cryptocurrency payments">` +
    `<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">` +
    `<link rel="icon" href="/favicon.svg"><link rel="stylesheet" href="${assets.stylesheetUrl}">` +
    `<script src="${assets.paymentScriptUrl}" defer></script>` +
    `</head><body class="${DOCUMENT_BODY_CLASS}"><div id="${STANDALONE_ROOT_ID}">${body}</div>` +
    `<script type="application/json" id="${STANDALONE_PROPS_ID}">${toScriptJson(props)}</script>` +
    `</body></html>`
  );
}

/** JSON inside a script element: no `<` can close the element or open a comment. */
function toScriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** One cookie's value from a Cookie header; undefined when absent. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const separator = pair.indexOf("=");
    if (separator !== -1 && pair.slice(0, separator).trim() === name) return safeDecode(pair.slice(separator + 1).trim());
  }
  return undefined;
}

type Encoding = "br" | "gzip";

/** The first of `offered` the client accepts (`Accept-Encoding`, a q of 0 refusing); null for none. */
export function negotiateEncoding(acceptEncoding: string | undefined, offered: readonly Encoding[]): Encoding | null {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name, ...parameters] = part.trim().toLowerCase().split(";");
    const isRefused = parameters.some((parameter) => /^\s*q=0(\.0*)?\s*$/.test(parameter));
    if (name && !isRefused) accepted.add(name);
  }
  return offered.find((encoding) => accepted.has(encoding)) ?? null;
}

/** A file of `/_hosted/`: named by its content, so kept by browsers for a year. */
function writeAsset(request: http.IncomingMessage, response: http.ServerResponse, asset: HostedAsset): void {
  const headers = {
    "content-type": asset.contentType,
    "cache-control": "public, max-age=31536000, immutable",
    etag: asset.etag,
    vary: "Accept-Encoding",
    "x-content-type-options": "nosniff",
  };
  if (request.headers["if-none-match"] === asset.etag) {
    response.writeHead(304, headers);
    return void response.end();
  }
  const encoding = negotiateEncoding(request.headers["accept-encoding"], ["br", "gzip"]);
  const body = encoding === "br" ? asset.brotli : encoding === "gzip" ? asset.gzip : asset.body;
  writeBody(request, response, 200, encoding ? { ...headers, "content-encoding": encoding } : headers, body);
}

/** A page's HTML, gzipped when the client takes it (a page is rendered once per request, so no brotli at level 11). */
function writeCompressible(request: http.IncomingMessage, response: http.ServerResponse, status: number, headers: Record<string, string>, body: Buffer): void {
  const isGzipped = negotiateEncoding(request.headers["accept-encoding"], ["gzip"]) === "gzip";
  writeBody(request, response, status, isGzipped ? { ...headers, "content-encoding": "gzip" } : headers, isGzipped ? gzipSync(body) : body);
}

function writeBody(request: http.IncomingMessage, response: http.ServerResponse, status: number, headers: Record<string, string>, body: Buffer): void {
  response.writeHead(status, { ...headers, "content-length": String(body.byteLength) });
  response.end(request.method === "HEAD" ? undefined : body);
}
