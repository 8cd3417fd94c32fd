import { claimStdout } from "./output";

// Before anything else can write there: stdout carries only the command's output.
claimStdout();

async function main(argv: string[]): Promise<number> {
  // spec: operator contract §1 — sandbox chains are on by default with the embedded database, as under `npm start`.
  if (!process.env.DATABASE_URL && process.env.GATEWAY_SANDBOX === undefined) process.env.GATEWAY_SANDBOX = "1";
  const { ensurePrismaClient } = await import("@/lib/runtime/prepare");
  ensurePrismaClient();
  // Loaded after the client is generated: the commands import it.
  const { runCli } = await import("./program");
  return runCli(argv);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
