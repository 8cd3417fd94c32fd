import { z } from "zod";
import { addAllowlistEntry, getAllowlist, removeAllowlistEntry, setAllowlistEnabled } from "@/lib/services/allowlist/manage-allowlist";
import { ALLOWLIST_SCHEMA } from "@/lib/api/serialize/allowlist";
import { defineOperation, defineWork, type OperationContext } from "../../operation";

function merchantOf(context: OperationContext): string {
  if (!context.merchantId) throw new Error("signed operation without a merchant");
  return context.merchantId;
}

const cidrBodySchema = z.object({ cidr: z.string().describe("An IPv4 or IPv6 address, or a CIDR range with its host bits zero (`203.0.113.0/24`, `2001:db8::/32`).") });

const ALLOWLIST_DESCRIPTION =
  "When the list is enabled, signed requests from an address outside it get 401 `auth.ip_not_allowed`; it is disabled by default. Entries are kept in canonical form.";
const ALLOWLIST_EXAMPLE = { entries: ["203.0.113.0/24", "198.51.100.7", "2001:db8::/32"], enabled: true };

export const listAllowlistOp = defineOperation({
  schema: z.object({}),
  invalidBody: "apiallow.bad_request",
  summary: "Get the IP allow-list",
  description: `The allow-list's entries and whether it is enabled. ${ALLOWLIST_DESCRIPTION}`,
  response: ALLOWLIST_SCHEMA,
  errors: [],
  requestExample: {},
  responseExample: ALLOWLIST_EXAMPLE,
  handle: (_input, context) => getAllowlist(context.deps.db, merchantOf(context)),
});

export const addAllowlistEntryOp = defineWork({
  schema: cidrBodySchema,
  invalidBody: "apiallow.bad_cidr",
  summary: "Add an address or range to the IP allow-list",
  description: `Adds \`cidr\` (adding an entry already there changes nothing) and answers the list. ${ALLOWLIST_DESCRIPTION}`,
  response: ALLOWLIST_SCHEMA,
  errors: [],
  requestExample: { cidr: "2001:db8::/32" },
  responseExample: ALLOWLIST_EXAMPLE,
  unit: addAllowlistEntry,
  args: (input, context) => ({ merchantId: merchantOf(context), cidr: input.cidr }),
  answer: (allowlist) => allowlist,
});

export const removeAllowlistEntryOp = defineWork({
  schema: cidrBodySchema,
  invalidBody: "apiallow.bad_cidr",
  summary: "Remove an address or range from the IP allow-list",
  description: `Removes \`cidr\` (in any notation of the same range) and answers the list; \`apiallow.not_found\` when it is not there. Removing the last entry of an enabled list also disables it, so no key is locked out.`,
  response: ALLOWLIST_SCHEMA,
  errors: ["apiallow.not_found"],
  requestExample: { cidr: "198.51.100.7" },
  responseExample: { entries: ["203.0.113.0/24", "2001:db8::/32"], enabled: true },
  unit: removeAllowlistEntry,
  args: (input, context) => ({ merchantId: merchantOf(context), cidr: input.cidr }),
  answer: (allowlist) => allowlist,
});

export const enableAllowlistOp = defineWork({
  schema: z.object({ enabled: z.boolean().describe("True to enforce the list, false to stop enforcing it.") }),
  invalidBody: "apiallow.bad_enabled",
  summary: "Enable or disable the IP allow-list",
  description: `Turns enforcement on or off and answers the list. Enabling an empty list fails with \`apiallow.empty\`. ${ALLOWLIST_DESCRIPTION}`,
  response: ALLOWLIST_SCHEMA,
  errors: ["apiallow.empty"],
  requestExample: { enabled: true },
  responseExample: ALLOWLIST_EXAMPLE,
  unit: setAllowlistEnabled,
  args: (input, context) => ({ merchantId: merchantOf(context), enabled: input.enabled }),
  answer: (allowlist) => allowlist,
});
