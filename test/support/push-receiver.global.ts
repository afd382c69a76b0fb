import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

/**
 * Real result-push receivers on loopback for the push-loopback tests (Node side; the tests run in
 * workerd and cannot listen themselves). A small control server starts and stops receivers:
 *   POST /receivers            → {port}: a receiver that is down (port reserved, nothing listening)
 *   POST /receivers/:port/up   → it listens and answers every POST with 204, keeping what it got
 *   GET  /receivers/:port      → {received: [{headers, body}]}
 */
declare module "vitest" {
  export interface ProvidedContext {
    pushReceiverControl: string;
  }
}

interface Receiver {
  server: Server;
  received: { headers: Record<string, string>; body: string }[];
}

export default async function setup(project: TestProject) {
  const receivers = new Map<number, Receiver>();
  const control = createServer(async (req, res) => {
    const [, , port, action] = (req.url ?? "").split("/");
    if (req.method === "POST" && !port) return json(res, { port: await reservePort(receivers) });
    const receiver = receivers.get(Number(port));
    if (!receiver) return json(res, { error: "no such receiver" }, 404);
    if (req.method === "POST" && action === "up") {
      await new Promise<void>((resolve) => receiver.server.listen(Number(port), "127.0.0.1", resolve));
      return json(res, { up: true });
    }
    json(res, { received: receiver.received });
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  project.provide("pushReceiverControl", `http://127.0.0.1:${(control.address() as AddressInfo).port}`);
  return async () => {
    for (const { server } of receivers.values()) server.close();
    await new Promise((resolve) => control.close(resolve));
  };
}

async function reservePort(receivers: Map<number, Receiver>): Promise<number> {
  const received: Receiver["received"] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  receivers.set(port, { server, received });
  return port;
}

function json(res: ServerResponse, body: unknown, status = 200) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
