// The scripted model (src/scripted-model/): the rules file's checks name the file, the rule and
// the fix; the first rule whose conditions hold answers, with the tool calls a model would send;
// a sequence answers in turn and, in the k-th run of an eval, starts at its k-th answer; a request
// no rule answers fails naming the request, its place and the nearest rule; each answer reports
// one request to the attempt observer, so budgets count it.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ConfigError } from "../src/errors.js";
import { ModelCallError, type ChatMessage, type ModelRequest } from "../src/model-port.js";
import { checkRulesFiles, scriptedModel } from "../src/scripted-model/index.js";
import { tempProject } from "./support/temp-project.js";

function request(stable: object, live: object = {}, more: ChatMessage[] = []): ModelRequest {
  const messages: ChatMessage[] = [{ role: "system", content: "s" }, { role: "user", content: JSON.stringify(stable) }, { role: "user", content: JSON.stringify(live) }, ...more];
  return { messages, tools: [], toolChoice: "required" };
}

const block = (statement: string, line = 3, related: object[] = []) =>
  request({ mode: "syntax", statement, location: { file: "app/main.py", line } }, { related_objects: related });

/** A rules file, read and checked as a run reads it before the program starts (named relative to its folder). */
async function rulesFile(text: string): Promise<string> {
  const dir = tempProject({ "rules.toml": text });
  await checkRulesFiles([path.join(dir, "rules.toml")], dir);
  return path.join(dir, "rules.toml");
}

async function answer(file: string, req: ModelRequest, env: NodeJS.ProcessEnv = {}) {
  const response = await scriptedModel({ id: "script:rules.toml", file }, env).complete(req, { deadline: Date.now() + 5000 });
  return response.message.tool_calls.map((c) => ({ name: c.function.name, args: JSON.parse(c.function.arguments) }));
}

async function fault(text: string): Promise<string> {
  const file = path.join(tempProject({ "rules.toml": text }), "rules.toml");
  await assert.rejects(checkRulesFiles([file], path.dirname(file)), ConfigError);
  return checkRulesFiles([file], path.dirname(file)).then(
    () => "",
    (error: Error) => error.message,
  );
}

test("a rules file's faults name the file, the rule and the fix", async () => {
  assert.match(await fault(`[[rule]]\nstatment = "x"\nliteral = 1\n`), /^rules\.toml: rule 1: unknown key 'statment'; a rule matches with name, statement/);
  assert.match(await fault(`[[rule]]\nname = "n"\nstatement = "x"\n`), /^rules\.toml: rule 1 \("n"\): no answer; give one of literal/);
  assert.match(await fault(`[[rule]]\nliteral = 1\n[[rule]]\nrecover = "again"\n`), /rule 2: recover must be "complete", "retry" or "reraise"/);
  assert.match(await fault(`[[rule]]\nliteral = 1\nexpression = "2"\n`), /give either literal or expression, not both/);
  assert.match(await fault(`[[rule]]\nliteral = 1\nsequence = [{ literal = 2 }]\n`), /'sequence' replaces the rule's own answer; move 'literal'/);
  assert.match(await fault(`[[rule]]\nsequence = [{ litral = 2 }]\n`), /sequence\[1\]: unknown key 'litral'/);
  assert.match(await fault(`[[rule]]\nmode = "block"\nrecover = "retry"\n`), /'recover' answers a recovery, not a block/);
  assert.match(await fault(`[[rule]]\nat = ":3"\nliteral = 1\n`), /'at' must be FILE or FILE:LINE/);
  assert.match(await fault(`[[rule]]\nliteral = 1\ndelay = -1\n`), /delay must be seconds/);
  assert.match(await fault(`[[rule]]\nliteral = 1979-05-27\n`), /literal: dates have no JSON form/);
  assert.match(await fault(`[[rule]\n`), /^rules\.toml:1:\d+: invalid TOML/);
  assert.match(await fault(`model = "x"\n`), /unknown key 'model'; a rules file holds only \[\[rule\]\] tables/);
});

test("the first rule whose conditions hold answers; a literal keeps its float or int type", async () => {
  const file = await rulesFile(`
[[rule]]
statement = "classify"
related = { ticket = "refund" }
literal = "billing"

[[rule]]
statement = "classify"
at = "main.py:3"
literal = 2.0

[[rule]]
statement = "count"
literal = { n = 2, xs = [1, 1.5] }
`);
  assert.deepEqual(await answer(file, block("classify   the ticket", 3, [{ name: "ticket", value: "please refund" }])), [
    { name: "finish", args: { outcome: { kind: "literal", value: "billing" } } },
  ]);
  const float = await scriptedModel({ id: "s", file }, {}).complete(block("classify it", 3, [{ name: "ticket", value: "crash" }]), { deadline: Date.now() + 5000 });
  assert.equal(float.message.tool_calls[0].function.arguments, `{"outcome":{"kind":"literal","value":2.0}}`);
  const nested = await scriptedModel({ id: "s", file }, {}).complete(block("count them"), { deadline: Date.now() + 5000 });
  assert.equal(nested.message.tool_calls[0].function.arguments, `{"outcome":{"kind":"literal","value":{"n":2,"xs":[1,1.5]}}}`);
});

test("execute, expression, error and recover answers become the tool calls a model sends", async () => {
  const file = await rulesFile(`
[[rule]]
statement = "tidy"
execute = "xs.sort()"

[[rule]]
statement = "sum"
expression = "sum(xs)"

[[rule]]
statement = "fail"
error = "cannot do that"

[[rule]]
exception = "KeyError"
execute = "d['b'] = 0"
recover = "retry"

[[rule]]
exception = "ValueError"
error = "not a number"

[[rule]]
exception = "IndexError"
recover = "complete"
explanation = "skipped the missing row"
`);
  assert.deepEqual(await answer(file, block("tidy xs")), [
    { name: "execute", args: { code: "xs.sort()" } },
    { name: "finish", args: { outcome: { kind: "none" } } },
  ]);
  assert.deepEqual(await answer(file, block("sum xs")), [{ name: "finish", args: { outcome: { kind: "expression", code: "sum(xs)" } } }]);
  assert.deepEqual(await answer(file, block("fail now")), [{ name: "finish", args: { outcome: { kind: "error", reason: "cannot do that" } } }]);
  const recovery = (type: string) => request({ mode: "recovery", statement: "v = d['b']", location: { file: "main.py", line: 2 } }, { recovery: { exception_type: type } });
  assert.deepEqual(await answer(file, recovery("KeyError")), [
    { name: "execute", args: { code: "d['b'] = 0" } },
    { name: "recover", args: { action: "retry", explanation: "rule 4 of rules.toml" } },
  ]);
  assert.deepEqual(await answer(file, recovery("ValueError")), [{ name: "recover", args: { action: "reraise", explanation: "not a number" } }]);
  assert.deepEqual(await answer(file, recovery("IndexError")), [{ name: "recover", args: { action: "complete", explanation: "skipped the missing row" } }]);
});

test("a sequence answers in turn and wraps; the k-th run of an eval starts at its k-th answer", async () => {
  const file = await rulesFile(`[[rule]]\nstatement = "pick"\nsequence = [{ literal = "a" }, { literal = "b" }, { literal = "c" }]\n`);
  const values = async (env: NodeJS.ProcessEnv) => {
    const model = scriptedModel({ id: "s", file }, env);
    const out: unknown[] = [];
    for (let i = 0; i < 4; i++)
      out.push(JSON.parse((await model.complete(block("pick one"), { deadline: Date.now() + 5000 })).message.tool_calls[0].function.arguments).outcome.value);
    return out;
  };
  assert.deepEqual(await values({}), ["a", "b", "c", "a"]);
  assert.deepEqual(await values({ AIYTHON_EVAL_RUN: "2" }), ["b", "c", "a", "b"]);
});

test("a request no rule answers fails naming the statement, its place and the nearest rule", async () => {
  const file = await rulesFile(`[[rule]]\nname = "far"\nstatement = "translate"\nliteral = 1\n\n[[rule]]\nname = "near"\nstatement = "summarize"\nat = "main.py:9"\nliteral = 2\n`);
  const error = await scriptedModel({ id: "s", file }, {})
    .complete(block("summarize the notes", 4), { deadline: Date.now() + 5000 })
    .then(
      () => null,
      (e: unknown) => e,
    );
  assert.ok(error instanceof ModelCallError);
  assert.match(
    error.message,
    /^no rule of rules\.toml answers the block "summarize the notes" at app\/main\.py:4; the nearest is rule 2 \("near"\), which wants at main\.py:9; add a \[\[rule\]\]/,
  );
});

test("an answer the program refused ends the invocation naming the rule and the refusal", async () => {
  const file = await rulesFile(`[[rule]]\nname = "n"\nstatement = "x"\nliteral = "text"\n`);
  const refused: ChatMessage[] = [
    { role: "assistant", content: null, tool_calls: [] },
    { role: "tool", tool_call_id: "1", content: `{"status":"error","message":"expected int, got str 'text'"}` },
  ];
  const calls = await answer(file, request({ mode: "syntax", statement: "x", location: { file: "m.py", line: 1 } }, {}, refused));
  assert.equal(calls[0].name, "finish");
  assert.match(calls[0].args.outcome.reason, /^the answer of rule 1 \("n"\) in rules\.toml was refused: .*expected int, got str 'text'/);
});

test("each answer is one request to the attempt observer, which may refuse it (a budget)", async () => {
  const file = await rulesFile(`[[rule]]\nstatement = "x"\nliteral = 1\ndelay = 0.05\n`);
  const sent: { route: string; usage?: { total_tokens?: number } }[] = [];
  const model = scriptedModel({ id: "script:r", file }, {});
  const started = Date.now();
  await model.complete(block("x"), { deadline: Date.now() + 5000, attempts: { sent: (a) => sent.push(a) } });
  assert.ok(Date.now() - started >= 45, "the delay was waited");
  assert.equal(sent.length, 1);
  assert.equal(sent[0].route, "script:r");
  assert.ok((sent[0].usage?.total_tokens ?? 0) > 0);
  const refuse = () => {
    throw new ModelCallError("budget", "budget spent");
  };
  await assert.rejects(model.complete(block("x"), { deadline: Date.now() + 5000, attempts: { sending: refuse } }), /budget spent/);
  assert.ok(fs.existsSync(file));
});

test("a recovery no rule answers re-raises with the miss as its explanation", async () => {
  const file = await rulesFile(`[[rule]]\nname = "keys"\nexception = "KeyError"\nrecover = "complete"\n`);
  const recovery = request({ mode: "recovery", statement: "n = 1 / 0", location: { file: "main.py", line: 2 } }, { recovery: { exception_type: "ZeroDivisionError" } });
  const calls = await answer(file, recovery);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].name, "recover");
  assert.equal(calls[0].args.action, "reraise");
  assert.match(
    calls[0].args.explanation,
    /^no rule of rules\.toml answers the recovery of ZeroDivisionError in "n = 1 \/ 0" at main\.py:2; the nearest is rule 1 \("keys"\), which wants exception KeyError, the request's is ZeroDivisionError/,
  );
});
