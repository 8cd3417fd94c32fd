import { z } from "zod";

/** Designed: the IP allow-list, as every allow-list operation answers it. */
export const ALLOWLIST_SCHEMA = z
  .object({
    entries: z
      .array(z.string())
      .describe("Addresses and ranges in canonical form (`10.0.0.0/8`, `2001:db8::/32`, a bare address for one host), oldest first."),
    enabled: z.boolean().describe("Whether signed requests from outside `entries` are refused (`auth.ip_not_allowed`)."),
  })
  .meta({ id: "Allowlist", description: "The IP allow-list of signed API calls." });

export type AllowlistView = z.output<typeof ALLOWLIST_SCHEMA>;
