import { Option, type Command } from "commander";
import { issueApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { API_KEY_KINDS, type ApiKeyKind } from "@/lib/auth/api-key-identity";
import { getSecretBox } from "@/lib/crypto/master-key";
import { CliError } from "../cli-error";
import { defineAction } from "../command-kit";
import { requireMerchant } from "../lookups";
import { withCliDatabase } from "../open-database";

export function registerKeyCommands(program: Command): void {
  const key = program.command("key").description("merchants' API keys");

  defineAction<{ merchant: string; kind: ApiKeyKind }>(
    key
      .command("create")
      .description("a new API key for a merchant; its secret is shown once")
      .requiredOption("--merchant <merchant_id>", "the merchant")
      .addOption(new Option("--kind <kind>", "what the key may call").choices(API_KEY_KINDS).makeOptionMandatory()),
    async (options) =>
      withCliDatabase(async (db) => {
        const merchant = await requireMerchant(db, options.merchant);
        const issued = await issueApiKey(db, getSecretBox(), merchant.id, options.kind);
        return {
          json: { public_id: issued.publicId, secret: issued.secret, kind: issued.kind },
          text: `public_id: ${issued.publicId}\nsecret:    ${issued.secret}\nkind:      ${issued.kind}\n(the secret is shown once; store it now)`,
        };
      }),
  );

  defineAction<{ publicId: string }>(
    key.command("revoke").description("revokes an API key at once").requiredOption("--public-id <public_id>", "the key's public id (pk_…)"),
    async (options) =>
      withCliDatabase(async (db) => {
        if (!(await revokeApiKey(db, options.publicId, new Date()))) throw new CliError("cli.not_found", `No active key ${options.publicId}`);
        return { json: { revoked: true }, text: `revoked ${options.publicId}` };
      }),
  );
}
