import type { Command } from "commander";
import { ERROR_CATALOGUE } from "@/lib/errors";
import { defineAction } from "../command-kit";
import { formatTable } from "../table";

export function registerErrorsCommand(program: Command): void {
  defineAction(program.command("errors").description("the error catalogue: code, HTTP status, default message"), async () => {
    const errors = Object.entries(ERROR_CATALOGUE).map(([code, entry]) => ({ code, status: entry.status, message: entry.message }));
    const text = formatTable(errors, [
      { header: "CODE", value: (entry) => entry.code },
      { header: "HTTP", value: (entry) => String(entry.status), align: "right" },
      { header: "MESSAGE", value: (entry) => entry.message },
    ]);
    return { json: { errors }, text };
  });
}
