import type { ApiDeps } from "@/lib/api/deps";

/** What the cabinet's services use: the same collaborators as the API's operations. */
export type CabinetDeps = Pick<ApiDeps, "db" | "secretBox" | "config" | "now">;

/** Where a cabinet request came from, for throttling and the audit log. */
export interface RequestOrigin {
  ipAddress: string;
  userAgent: string;
}
