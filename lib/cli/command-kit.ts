import { Option, type Command } from "commander";
import { writeJson, writeLine } from "./output";

export interface CommandContext {
  isJson: boolean;
  /** A line for people while the command runs; nothing under --json (its one object comes at the end). */
  say(line: string): void;
  /** Aborted by Ctrl-C (SIGINT) or SIGTERM, for commands that run until stopped. */
  signal: AbortSignal;
}

export interface CommandResult {
  /** The one object --json prints. */
  json: object;
  /** What people see; absent when the command said everything as it went. */
  text?: string;
  /** 0 unless the command has something to signal: drift found by the audit (1), a watch stopped by Ctrl-C (130). */
  exitCode?: number;
}

export type CommandHandler<Options> = (options: Options, context: CommandContext, args: string[]) => Promise<CommandResult>;

/**
 * A stop that lets a long-running command end cleanly: the first Ctrl-C aborts its signal, a
 * second one ends the process at once.
 */
function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return controller.signal;
}

/**
 * Gives a leaf command its `--json` option and its action: the handler's result is printed once,
 * as one JSON object or as text for people, and its exit code kept for the process.
 */
export function defineAction<Options>(command: Command, handler: CommandHandler<Options>, options: { runsUntilStopped?: boolean } = {}): Command {
  return command.addOption(new Option("--json", "print exactly one JSON object on stdout")).action(async (...received: unknown[]) => {
    const self = received[received.length - 1] as Command;
    const opts = self.opts() as Options & { json?: boolean };
    const isJson = opts.json === true;
    const context: CommandContext = {
      isJson,
      say: (line) => {
        if (!isJson) writeLine(line);
      },
      signal: options.runsUntilStopped ? interruptSignal() : new AbortController().signal,
    };
    const result = await handler(opts, context, self.processedArgs as string[]);
    if (isJson) writeJson(result.json);
    else if (result.text !== undefined) writeLine(result.text);
    process.exitCode = result.exitCode ?? 0;
  });
}

/** The leaf commands under a command, depth first, in the order they were added. */
export function listLeafCommands(command: Command): Command[] {
  return command.commands.length === 0 ? [command] : command.commands.flatMap(listLeafCommands);
}

/** `merchant create --name <name> [--email <email>] [--json]`: a leaf command as typed. */
export function describeUsage(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  const args = command.registeredArguments.map((argument) => (argument.required ? `<${argument.name()}>` : `[${argument.name()}]`));
  const options = command.options.map((option) => {
    const flags = option.argChoices ? `${option.long} ${option.argChoices.join("|")}` : option.flags;
    return option.mandatory ? flags : `[${flags}]`;
  });
  return [...names, ...args, ...options].join(" ");
}

/** Help text listing every leaf command under `command` with its options. */
export function describeCommandTree(command: Command): string {
  const lines = listLeafCommands(command).map((leaf) => `  ${describeUsage(leaf)}\n      ${leaf.description()}`);
  return `\nEvery command:\n${lines.join("\n")}\n`;
}
