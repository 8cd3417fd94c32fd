import { createHmac } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import { decode } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { getApiDeps } from "@/lib/api/deps";
import { exportCabinetAuthEnv, getConfig } from "@/lib/config/env";
import { loadMasterKey } from "@/lib/crypto/master-key";
import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { recordAudit } from "@/lib/services/cabinet/audit-log";
import { SESSION_LIFETIME_MS, revokeSession } from "@/lib/services/cabinet/sessions";
import { originFromHeaders } from "./request-origin";
import { completeSignIn } from "./sign-in";

/** The httpOnly cookie that carries the sign-in ticket between the password step and the code step. */
export const TICKET_COOKIE = "gateway_cabinet_ticket";
export const SIGN_IN_PATH = "/cabinet/sign-in";

/** What the session cookie (a signed JWT) carries: the session row it stands for, nothing secret. */
interface CabinetToken {
  sid?: string;
  uid?: string;
}

function readCookie(cookieHeader: string | undefined, name: string): string {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

function sessionSecret(): string {
  const config = getConfig();
  // Derived, not the master key itself: the cookie's signing key is a different key.
  return config.cabinetSessionSecret ?? createHmac("sha256", loadMasterKey(config)).update("gateway/cabinet-session").digest("base64url");
}

const globalForAuth = globalThis as unknown as { gatewayCabinetAuth?: NextAuthOptions };

/**
 * next-auth (v4, JWT sessions, one Credentials provider) as the cabinet uses it: the provider's
 * only credential is the second-factor code; the ticket from the password step rides in an
 * httpOnly cookie. Every check lives in lib/services/cabinet; the JWT names a session row, which
 * each request checks (revocation and idleness take effect at once).
 */
export function getCabinetAuthOptions(): NextAuthOptions {
  if (globalForAuth.gatewayCabinetAuth) return globalForAuth.gatewayCabinetAuth;
  const secret = sessionSecret();
  exportCabinetAuthEnv(getConfig(), secret);
  globalForAuth.gatewayCabinetAuth = {
    secret,
    useSecureCookies: isSecureOrigin(getConfig().publicBaseUrl),
    session: { strategy: "jwt", maxAge: SESSION_LIFETIME_MS / 1000 },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    providers: [
      CredentialsProvider({
        id: "cabinet",
        name: "Gateway cabinet",
        credentials: { code: { label: "Code", type: "text" } },
        async authorize(credentials, request) {
          const headers = (request.headers ?? {}) as Record<string, string | undefined>;
          const origin = originFromHeaders(new Headers(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === "string")));
          try {
            const actor = await completeSignIn(getApiDeps(), { ticket: readCookie(headers.cookie, TICKET_COOKIE), code: credentials?.code ?? "" }, origin);
            return { id: actor.userId, email: actor.email, sid: actor.sessionId };
          } catch (error) {
            // next-auth hands the message to the page as `error`: "<code>|<message>".
            if (isAppError(error)) throw new Error(`${error.code}|${error.message}`);
            // Anything else stays in the log: its message would reach the page through the URL.
            log.error("cabinet sign-in failed", { error });
            throw new Error(`internal.error|${new AppError("internal.error").message}`);
          }
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        const carried = token as CabinetToken;
        if (user) {
          carried.sid = (user as { sid?: string }).sid;
          carried.uid = user.id;
        }
        return token;
      },
      session({ session }) {
        // The browser learns nothing from /api/auth/session beyond being signed in; pages read the actor server-side.
        return { expires: session.expires };
      },
    },
    events: {
      async signOut({ token }) {
        const { sid, uid } = (token ?? {}) as CabinetToken;
        if (!sid || !uid) return;
        const deps = getApiDeps();
        const now = deps.now();
        const user = await deps.db.cabinetUser.findUnique({ where: { id: uid } });
        if (!user || !(await revokeSession(deps.db, uid, sid, now))) return;
        await recordAudit(deps.db, { merchantId: user.merchantId, userId: uid, actorEmail: user.email, action: "sign_out", outcome: "success", origin: { ipAddress: "", userAgent: "" }, detail: { session: sid } }, now);
      },
    },
  };
  return globalForAuth.gatewayCabinetAuth;
}

/**
 * next-auth's session cookie, one name per scheme: `__Secure-` when the cabinet is served over
 * https (PUBLIC_BASE_URL), which a browser keeps only from a secure response and sends only over
 * https; the plain name otherwise. The other name is never read: a cookie planted over plain
 * http (or by a sibling subdomain) cannot stand in for the secure one.
 */
export function sessionCookieName(publicBaseUrl: string): string {
  return isSecureOrigin(publicBaseUrl) ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

function isSecureOrigin(publicBaseUrl: string): boolean {
  return publicBaseUrl.toLowerCase().startsWith("https://");
}

/** The session id a session cookie's JWT names, or null for no cookie, a forged one or an expired one. */
export async function sessionIdFromCookie(cookieValue: string | undefined): Promise<string | null> {
  if (!cookieValue) return null;
  const options = getCabinetAuthOptions();
  const token = (await decode({ token: cookieValue, secret: options.secret! }).catch(() => null)) as CabinetToken | null;
  return typeof token?.sid === "string" ? token.sid : null;
}
