// Helpers for the HTTP transport tests (test/http-transport-*.test.ts): a node:http server of the
// test's own that counts the connections it accepts, the requests it answers and the most in flight
// at once (closed after the file's tests), and a JSON answer written in one write.

import { after } from "node:test";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface CountingServer {
  url: string;
  /** Connections accepted, requests answered, and the most requests in flight at once. */
  connections: number;
  requests: number;
  peakInFlight: number;
  close(): Promise<void>;
}

const servers: CountingServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

export async function countingServer(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>): Promise<CountingServer> {
  const sockets = new Set<Socket>();
  let inFlight = 0;
  const state = { url: "", connections: 0, requests: 0, peakInFlight: 0, close: async () => {} };
  const server = createServer(async (req, res) => {
    inFlight += 1;
    state.peakInFlight = Math.max(state.peakInFlight, inFlight);
    let body = "";
    for await (const chunk of req) body += chunk;
    state.requests += 1;
    res.on("finish", () => (inFlight -= 1));
    await answer(req, res, body);
  });
  server.on("connection", (socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  servers.push(state);
  return state;
}

export const json = (res: ServerResponse, text: string, status = 200) => {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
};
