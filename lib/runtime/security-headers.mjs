// Plain JavaScript so that next.config.mjs (loaded by Node.js as it is) and the TypeScript of the
// payment page's fast path (lib/runtime/serve-hosted-page.tsx) read the same file; its types are in
// security-headers.d.mts.

/**
 * The content security policy of every page Next.js serves: no page may be framed by another site
 * (clickjacking a cabinet approval or a claim), and no plugin or foreign base URL is taken.
 */
export const PAGE_CONTENT_SECURITY_POLICY = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'";

/** The payment page's fast path: the same, and its only script is its own file. */
export const HOSTED_PAGE_CONTENT_SECURITY_POLICY = "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The security headers of a page with the given content security policy: no framing, no URL —
 * claim tokens travel in paths — leaking in a Referer, no response sniffed into another type, no
 * window shared with an opener from another site, no camera, microphone, location or payment API.
 * @param {string} contentSecurityPolicy
 * @returns {Record<string, string>}
 */
export function securityHeaders(contentSecurityPolicy) {
  return {
    "content-security-policy": contentSecurityPolicy,
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
}
