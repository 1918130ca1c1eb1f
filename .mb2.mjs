import OpenAI from "openai";
import http from "node:http";
const url = process.argv[2];
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
const client = new OpenAI({ apiKey: "k", baseURL: url, maxRetries: 0, fetch: httpFetch, logLevel: "off" });
for (let i = 0; i < 1000; i++) await client.chat.completions.create(body, { timeout: 1000, signal: new AbortController().signal });
