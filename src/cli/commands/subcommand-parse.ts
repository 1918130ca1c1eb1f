// The command line of a subcommand (runs, recheck, resume): commander parses it without printing
// or exiting, and any mistake it finds becomes one UsageError that ends with the command's usage.

import { Command, CommanderError } from "commander";
import { UsageError } from "../../errors.js";

/** A commander Command that neither prints nor exits: parseSubcommand reports its mistakes. */
export function quietCommand(name: string): Command {
  return new Command(name).exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined, outputError: () => undefined });
}

/** Parses `args` (after the subcommand's name) or throws a UsageError naming the mistake and `usage`. */
export function parseSubcommand(command: Command, args: readonly string[], usage: string): void {
  try {
    command.parse([...args], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) throw new UsageError(`${error.message.replace(/^error: /, "")}: ${usage}`);
    throw error;
  }
}
