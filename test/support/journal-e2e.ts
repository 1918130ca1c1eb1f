// Shared set-up for the end-to-end tests of the run-faithful journal (SPEC §11.1–§11.3): a project
// holding the fixtures of test/fixtures/journal/, the built CLI run in it against a loopback model
// (kept across runs, so a test can count what each run sent), and readers of its journal.

import fs from "node:fs";
import path from "node:path";
import { finishCall, startLoopbackModel, type LoopbackModel, type RecordedRequest, type Responder } from "./loopback-model.js";
import { aiython, cleanEnv, ROOT, type Ran } from "./run-cli.js";
import { tempProject } from "./temp-project.js";
import { journalRows } from "./journal-rows.js";

export const JOURNAL_FIXTURES = path.join(ROOT, "test", "fixtures", "journal");

export interface JournalProject {
  root: string;
  model: LoopbackModel;
  /** Runs the built CLI in the project (extra environment on top of the model's). */
  run(args: string[], env?: Record<string, string>): Promise<Ran>;
  /** Chat requests the model has received so far. */
  sent(): RecordedRequest[];
  /** One value of the journal, read with SQL. */
  query<T>(sql: string, ...params: unknown[]): T[];
  close(): Promise<void>;
}

/** A project with every journal fixture, and a model answering with `responder`. */
export async function journalProject(responder: Responder): Promise<JournalProject> {
  const files = Object.fromEntries(fs.readdirSync(JOURNAL_FIXTURES).map((name) => [name, { copy: path.join(JOURNAL_FIXTURES, name) }]));
  const root = tempProject(files, { prefix: "aiython-journal-" });
  const model = await startLoopbackModel({ responder });
  const env = (extra: Record<string, string> = {}) => cleanEnv({ AIYTHON_MODEL: "loop", OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-journal-e2e-key", ...extra });
  return {
    root,
    model,
    run: (args, extra) => aiython(args, { cwd: root, env: env(extra) }),
    sent: () => model.requests.filter((request) => request.path.endsWith("/chat/completions")),
    query: <T>(sql: string, ...params: unknown[]): T[] => journalRows<T>(root, sql, ...params),
    close: () => model.close(),
  };
}

/** Answers every request with the next of `values` (then "?"), as a model that answers differently each time. */
export function inTurn(values: readonly string[]): Responder {
  return (_request, index) => finishCall({ kind: "literal", value: values[index] ?? "?" });
}

/** The block ("file:line") a request is about. */
export function blockOf(request: RecordedRequest): string {
  const location = JSON.parse(request.body.messages[1].content).location;
  return `${location.file}:${location.line}`;
}
