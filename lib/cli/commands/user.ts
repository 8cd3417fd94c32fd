import type { Command } from "commander";
import { getConfig } from "@/lib/config/env";
import { getSecretBox } from "@/lib/crypto/master-key";
import { defineAction } from "../command-kit";
import { cliActor, requireCabinetUser } from "../lookups";
import { withCliDatabase } from "../open-database";

export function registerUserCommands(program: Command): void {
  const user = program.command("user").description("merchants' cabinet users: a way back in");

  defineAction<{ email: string; passwordReset?: boolean }>(
    user
      .command("reset")
      .description("ends the user's sessions and clears the second factor: the next sign-in enrols an authenticator again, within 7 days (with --password-reset, also a new password, shown once)")
      .requiredOption("--email <email>", "the cabinet user's e-mail")
      .option("--password-reset", "replace the password with a random one, printed once for you to hand over"),
    async (options) =>
      withCliDatabase(async (db) => {
        const { resetSignIn } = await import("@/lib/services/cabinet/reset-sign-in");
        const found = await requireCabinetUser(db, options.email);
        const reset = await resetSignIn(
          { db, secretBox: getSecretBox(), config: getConfig(), now: () => new Date() },
          { userId: found.id, shouldReplacePassword: options.passwordReset === true },
          cliActor(),
        );
        const json = {
          user_id: reset.userId,
          merchant_id: reset.merchantId,
          email: reset.email,
          role: reset.role,
          ended_sessions: reset.endedSessions,
          password: reset.password,
          enrol_by: reset.enrolBy.toISOString(),
        };
        const lines = [
          `reset ${reset.email} (${reset.role} of merchant ${reset.merchantId}): ${reset.endedSessions} session(s) ended, second factor cleared`,
          `the next sign-in sets up an authenticator app again, by ${json.enrol_by}; the user was e-mailed`,
          ...(reset.password === null ? [] : [`password: ${reset.password}`, "(the password is shown once; hand it over another way than e-mail)"]),
        ];
        return { json, text: lines.join("\n") };
      }),
  );
}
