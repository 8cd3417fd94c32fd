import NextAuth from "next-auth";
import { getCabinetAuthOptions } from "@/lib/cabinet/auth-options";

export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// The options are built on first request, not at import: they read the configuration and the master key.
async function handle(request: Request, context: RouteContext): Promise<Response> {
  return NextAuth(getCabinetAuthOptions())(request, context);
}

export { handle as GET, handle as POST };
