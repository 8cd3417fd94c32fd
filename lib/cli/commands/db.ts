import type { Command } from "commander";
import { defineAction } from "../command-kit";
import { withCliDatabase } from "../open-database";

export function registerDbCommands(program: Command): void {
  const db = program.command("db").description("the database");
  defineAction(
    db.command("migrate").description("applies pending migrations (every command does so before it runs)"),
    // Opening the database migrates it.
    async () => withCliDatabase(async () => ({ json: { migrated: true }, text: "database is up to date" })),
  );
}
