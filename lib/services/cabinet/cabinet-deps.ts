import type { AppDeps } from "@/lib/deps/app-deps";

/** What the cabinet's services use: the same collaborators as the API's operations. */
export type CabinetDeps = Pick<AppDeps, "db" | "secretBox" | "config" | "now">;

/** Where a cabinet request came from, for throttling and the audit log. */
export interface RequestOrigin {
  ipAddress: string;
  userAgent: string;
}
