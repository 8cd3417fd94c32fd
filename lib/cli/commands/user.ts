import type { Command } from "commander";
import { getConfig } from "@/lib/config/env";
import { getSecretBox } from "@/lib/crypto/master-key";
import { createAppDeps } from "@/lib/deps/app-deps";
import { runUnit } from "@/lib/deps/unit-of-work";
import { defineAction } from "../command-kit";
import { cliActor, requireCabinetUser } from "../lookups";
import { withCliDatabase } from "../open-database";

export function registerUserCommands(program: Command): void {
  const user = program.command("user").description("merchants' cabinet users: a way back in");

  defineAction<{ email: string; keepPassword?: boolean }>(
    user
      .command("reset")
      .description(
        "ends the user's sessions, clears the second factor and replaces the password with a random one, shown once: the next sign-in enrols an authenticator again, within 7 days",
      )
      .requiredOption("--email <email>", "the cabinet user's e-mail")
      // Without a new password, whoever knows the old one (the reason for a reset, often) could enrol first.
      .option("--keep-password", "keep the password: only when you are sure nobody else knows it"),
    async (options) =>
      withCliDatabase(async (db) => {
        const { resetSignIn } = await import("@/lib/services/cabinet/reset-sign-in");
        const found = await requireCabinetUser(db, options.email);
        const deps = createAppDeps(getConfig(), db, getSecretBox());
        const reset = await runUnit(deps, resetSignIn, { userId: found.id, shouldReplacePassword: options.keepPassword !== true, operator: cliActor() });
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
          `the next sign-in sets up an authenticator app again, by ${json.enrol_by}${getConfig().email.mode === "off" ? " (e-mail is off: tell the user yourself)" : "; the user was e-mailed"}`,
          ...(reset.password === null ? [] : [`password: ${reset.password}`, "(the password is shown once; hand it over another way than e-mail)"]),
        ];
        return { json, text: lines.join("\n") };
      }),
  );
}
