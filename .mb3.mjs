import OpenAI from "openai";
import http from "node:http";
import { keepAliveFetch } from "./src/capabilities/chat/http-transport.ts";
const url = process.argv[2];
const agent = new http.Agent({ keepAlive: true });
const body = { model: "m", messages: [{ role: "system", content: "x".repeat(700) }, { role: "user", content: "y".repeat(700) }], tools: [{ type: "function", function: { name: "finish", description: "d", parameters: { type: "object", properties: {}, additionalProperties: false } } }], tool_choice: "required" };
const u = new URL(url + "/chat/completions");
function raw(wrap) {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(u, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(text) } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        if (wrap) { const h = new Headers(); for (let i = 0; i < res.rawHeaders.length; i += 2) h.append(res.rawHeaders[i], res.rawHeaders[i + 1]); new Response(Buffer.concat(chunks), { status: 200, headers: h }).json().then(resolve); }
        else resolve(JSON.parse(Buffer.concat(chunks).toString()));
      });
    });
    req.on("error", reject);
    req.end(text);
  });
}
const client = new OpenAI({ apiKey: "k", baseURL: url, maxRetries: 0, fetch: keepAliveFetch(), logLevel: "off" });
const modes = { raw: () => raw(false), rawResponse: () => raw(true), openai: () => client.chat.completions.create(body, { timeout: 1000, signal: new AbortController().signal }), openaiWithResponse: () => client.chat.completions.create(body, { timeout: 1000, signal: new AbortController().signal }).withResponse() };
const acc = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
for (const m in modes) for (let i = 0; i < 20; i++) await modes[m]();
for (let r = 0; r < 20; r++) for (const m in modes) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < 25; i++) await modes[m]();
  const c = process.cpuUsage(c0); acc[m].push((c.user + c.system) / 1000 / 25);
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const m in modes) console.log(m.padEnd(20), "cpu/req median", med(acc[m]).toFixed(3), "ms");
