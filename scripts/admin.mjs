#!/usr/bin/env node
// `npm run admin -- <command>`: the admin API from the shell (DESIGN §6).
// Reads ADMIN_TOKEN from the environment or .dev.vars; talks to BASE_URL, else to the local
// dev server on PORT (as `npm start` does), else to http://127.0.0.1:8787.
import { existsSync, readFileSync } from "node:fs";

const usage = `usage: npm run admin -- <command>
  create-account --name NAME --mode provider_versand|eigenversand [--features a,b] [--push-url URL --push-secret S]
  update-account ID [--name NAME] [--mode MODE] [--features a,b] [--disable x,y]
  new-key ID
  add-handler ID --email E --name N --password P
  remove-handler ID HANDLER_ID
env: ADMIN_TOKEN (else .dev.vars); BASE_URL, else http://127.0.0.1:$PORT, else http://127.0.0.1:8787`;

const [command, ...rest] = process.argv.slice(2);
const positional = rest.filter((a, i) => !a.startsWith("--") && !rest[i - 1]?.startsWith("--"));
const flag = (name) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : undefined;
};
const devVars = existsSync(".dev.vars")
  ? Object.fromEntries(
      readFileSync(".dev.vars", "utf8")
        .split("\n")
        .filter((l) => l.includes("="))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    )
  : {};
const token = process.env.ADMIN_TOKEN ?? devVars.ADMIN_TOKEN;
const base = (process.env.BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? "8787"}`).replace(/\/+$/, "");
const baseFrom = process.env.BASE_URL ? "from BASE_URL" : process.env.PORT ? "from PORT" : "the default";
const list = (value, on) =>
  Object.fromEntries(
    (value ?? "")
      .split(",")
      .filter(Boolean)
      .map((f) => [f.trim(), on]),
  );

const requests = {
  "create-account": () => [
    "POST",
    "/admin/accounts",
    {
      name: flag("name"),
      communicationMode: flag("mode"),
      features: list(flag("features"), true),
      ...(flag("push-url") && { push: { url: flag("push-url"), secret: flag("push-secret") } }),
    },
  ],
  "update-account": () => [
    "PATCH",
    `/admin/accounts/${positional[0]}`,
    {
      ...(flag("name") && { name: flag("name") }),
      ...(flag("mode") && { communicationMode: flag("mode") }),
      ...((flag("features") || flag("disable")) && {
        features: { ...list(flag("features"), true), ...list(flag("disable"), false) },
      }),
    },
  ],
  "new-key": () => ["POST", `/admin/accounts/${positional[0]}/keys`, undefined],
  "add-handler": () => [
    "POST",
    `/admin/accounts/${positional[0]}/handlers`,
    { email: flag("email"), name: flag("name"), password: flag("password") },
  ],
  "remove-handler": () => ["DELETE", `/admin/accounts/${positional[0]}/handlers/${positional[1]}`, undefined],
};

if (!requests[command] || !token) {
  console.error(token ? usage : `ADMIN_TOKEN is not set.\n${usage}`);
  process.exit(2);
}
const [method, path, body] = requests[command]();
const res = await fetch(`${base}${path}`, {
  method,
  headers: { authorization: `Bearer ${token}`, ...(body && { "content-type": "application/json" }) },
  body: body && JSON.stringify(body),
}).catch((err) => {
  console.error(`cannot reach ${base}${path} (${baseFrom}): ${err.cause?.code ?? err.message}.
Is the service running (npm start)? Point the CLI at it with PORT (the local dev server on that port,
e.g. PORT=8830 npm run admin -- ${command} …) or BASE_URL (any URL, wins over PORT, e.g.
BASE_URL=https://capture.example npm run admin -- ${command} …).`);
  process.exit(1);
});
const text = await res.text();
if (res.status === 204) console.log(`${res.status} ${method} ${path}: done`);
else
  try {
    console.log(JSON.stringify(JSON.parse(text), null, 2));
  } catch {
    console.log(`${res.status} from ${base}${path} (${baseFrom}), not JSON: ${text.slice(0, 300)}`);
  }
process.exit(res.ok ? 0 : 1);
