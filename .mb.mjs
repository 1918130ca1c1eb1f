import OpenAI from "openai";
import http from "node:http";
import { Readable } from "node:stream";
const url = process.argv[2];
const mode = process.argv[3];
const N = Number(process.argv[4] ?? 300);
const agent = new http.Agent({ keepAlive: true });
function httpFetch(input, init = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(typeof input === "string" ? input : input.url);
    const headers = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    const req = http.request(u, { method: init.method ?? "GET", headers, agent, signal: init.signal }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const h = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) h.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, statusText: res.statusMessage, headers: h }));
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}
const body = { model: "m", messages: [{ role: "system", content: "x".repeat(700) }, { role: "user", content: "y".repeat(700) }], tools: [{ type: "function", function: { name: "finish", description: "d", parameters: { type: "object", properties: {}, additionalProperties: false } } }], tool_choice: "required" };
const mk = (m) => new OpenAI({ apiKey: "k", baseURL: url, maxRetries: 0, fetch: m.includes("http") ? httpFetch : fetch, logLevel: "off" });
const modes = ["fetch-new", "fetch-reuse", "http-reuse", "http-new"];
const acc = Object.fromEntries(modes.map((m) => [m, []]));
const clients = Object.fromEntries(modes.map((m) => [m, mk(m)]));
for (const m of modes) for (let i = 0; i < 20; i++) await clients[m].chat.completions.create(body);
for (let r = 0; r < 20; r++) for (const m of modes) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < 25; i++) {
    const client = m.includes("new") ? mk(m) : clients[m];
    await client.chat.completions.create(body, { timeout: 1000, signal: new AbortController().signal });
  }
  const c = process.cpuUsage(c0); acc[m].push((c.user + c.system) / 1000 / 25);
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const m of modes) console.log(m, "cpu/req median", med(acc[m]).toFixed(3), "ms");
