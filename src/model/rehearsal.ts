// A request rehearsed without a network before the first real one, so that the first block does
// not pay one-off costs (SPEC §12): the model client's warm-up runs it while the program is still
// on its way to its first block. Nothing leaves the process, no environment is read and nothing
// is kept.
//   rehearsePost   the POST path of non-streaming routes (post-attempt.ts over http-transport.ts)
//                  through a node:http agent whose connection is a stream in memory answering at
//                  once: Node's HTTP client, its parser and the answer's reading run once, cold.
//   rehearse       the openai client's path (request building, Node's fetch classes, which it
//                  builds on first use, response parsing) against a fetch answering from memory.

import http from "node:http";
import { Duplex } from "node:stream";
import type { OpenAIModuleType } from "./load-openai.js";
import { makeRouteClient, runAttempt } from "./run-attempt.js";
import { completionsUrl, postAttempt } from "./post-attempt.js";
import { transportWith } from "./http-transport.js";
import type { ChatRoute } from "./types.js";

const ROUTE: ChatRoute = { id: "rehearsal/none", model: "none", apiBase: "http://127.0.0.1:9/v1", apiKey: null };

const ANSWER = JSON.stringify({
  id: "rehearsal",
  object: "chat.completion",
  created: 0,
  model: "none",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: null, tool_calls: [{ id: "call-0", type: "function", function: { name: "finish", arguments: "{}" } }] },
      finish_reason: "tool_calls",
    },
  ],
});

const answerAtOnce = (async () => new Response(ANSWER, { status: 200, headers: { "content-type": "application/json" } })) as typeof fetch;

export async function rehearse(mod: OpenAIModuleType): Promise<void> {
  await runAttempt({
    mod,
    routeClient: makeRouteClient(mod, ROUTE, answerAtOnce),
    route: ROUTE,
    request: { messages: [{ role: "user", content: "rehearsal" }], tools: [], toolChoice: "required" },
    toolChoice: "required",
    stream: false,
    remainingMs: 10_000,
  });
}

const REPLY = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(ANSWER)}\r\nconnection: close\r\n\r\n${ANSWER}`;

/** A connection that answers REPLY once the request has been written, then ends. */
function answeringSocket(): Duplex {
  let answered = false;
  const socket: Duplex = new Duplex({
    read() {},
    write(_chunk, _encoding, done) {
      done();
      if (answered) return;
      answered = true;
      setImmediate(() => {
        socket.push(REPLY);
        socket.push(null);
      });
    },
  });
  return socket;
}

/** Whether the rehearsed request came back as an answer (it always should: tests check it). */
export async function rehearsePost(): Promise<boolean> {
  const agent = new http.Agent({ keepAlive: false });
  agent.createConnection = () => answeringSocket() as never;
  const result = await postAttempt({
    post: transportWith(async () => agent).post,
    url: completionsUrl(ROUTE.apiBase),
    route: ROUTE,
    request: { messages: [{ role: "user", content: "rehearsal" }], tools: [], toolChoice: "required" },
    toolChoice: "required",
    remainingMs: 10_000,
  });
  return result.ok;
}
