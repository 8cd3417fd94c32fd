import { Command, CommanderError } from "commander";
import { describeFailure } from "./cli-error";
import { describeCommandTree } from "./command-kit";
import { writeJson, writeStdout } from "./output";
import { registerBatchCommands } from "./commands/batch";
import { registerComplianceCommands } from "./commands/compliance";
import { registerDbCommands } from "./commands/db";
import { registerErrorsCommand } from "./commands/errors";
import { registerEventsCommands } from "./commands/events";
import { registerKeyCommands } from "./commands/key";
import { registerLedgerCommands } from "./commands/ledger";
import { registerListenCommand } from "./commands/listen";
import { registerMailboxCommand } from "./commands/mailbox";
import { registerMerchantCommands } from "./commands/merchant";
import { registerPayoutCommands } from "./commands/payout";
import { registerTransfersCommands } from "./commands/transfers";
import { registerTriggerCommand } from "./commands/trigger";
import { registerUserCommands } from "./commands/user";
import { registerWalletsCommands } from "./commands/wallets";

const ABOUT = [
  "The gateway's operator CLI: npm run --silent gateway -- <command> [options].",
  "It works on DATABASE_URL, or on the embedded database under GATEWAY_DATA_DIR (default ./.data): the running service's, if it is up, else it opens the files itself.",
  'With --json every command prints exactly one JSON object on stdout; a failure prints {"error": {"code", "message"}} there, its message on stderr, and exits 1.',
].join("\n\n");

/**
 * The whole command tree, one file per command group under ./commands. Handlers import the
 * services they run when they run (`await import`): a command line loads only its own command's
 * code, which keeps each run quick to start (chain libraries take seconds to load).
 */
export function buildProgram(): Command {
  const program = new Command("gateway")
    .description(ABOUT)
    .usage("<command> [options]")
    .helpCommand(false)
    // Errors are reported in one place (runCli), as text and, under --json, as the one object.
    .exitOverride()
    .configureOutput({ writeOut: writeStdout, writeErr: (text) => process.stderr.write(text), outputError: () => {} });
  registerMerchantCommands(program);
  registerKeyCommands(program);
  registerUserCommands(program);
  registerPayoutCommands(program);
  registerBatchCommands(program);
  registerWalletsCommands(program);
  registerTransfersCommands(program);
  registerEventsCommands(program);
  registerListenCommand(program);
  registerTriggerCommand(program);
  registerLedgerCommands(program);
  registerComplianceCommands(program);
  registerMailboxCommand(program);
  registerDbCommands(program);
  registerErrorsCommand(program);
  program.addHelpText("after", describeCommandTree(program));
  for (const group of program.commands) {
    if (group.commands.length === 0) continue;
    group.helpCommand(false).addHelpText("after", describeCommandTree(group));
  }
  return program;
}

/** Runs one command line; resolves with the process exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const isJson = argv.includes("--json");
  try {
    await buildProgram().parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help asked for (or shown as the answer to a group without its subcommand).
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return 0;
      const message = error.code === "commander.help" ? "a subcommand is required (see --help)" : error.message.replace(/^error: /, "");
      report({ code: "cli.usage", message }, isJson, true);
      return 1;
    }
    report(describeFailure(error), isJson, false);
    return 1;
  }
}

function report(failure: { code: string; message: string }, isJson: boolean, isUsage: boolean): void {
  if (isJson) writeJson({ error: failure });
  process.stderr.write(`${failure.message}${isUsage ? "\n(npm run --silent gateway -- --help lists every command)" : ""}\n`);
}
