// A V8 CPU profile (.cpuprofile) of a server under load, summed into the phases of a request.
//
// Each sample is charged to one phase: from the sampled function up its stack, the first frame a
// rule below recognises decides; frames no rule knows (events' emit, nextTick, promise jobs) pass
// the decision to their caller. V8 charges a builtin to the JavaScript function that called it, so
// JSON.parse is in the self time of the function that calls it (raw's 'end' listener, unruffled's
// parseJsonBody, Fastify's secure-json-parse), JSON.stringify in that of its caller: the rules put
// those callers in "parse JSON" and "serialize". "(program)" is native code V8 cannot attribute
// to a JavaScript frame (llhttp parsing the request in C++, libuv, the kernel's socket work outside
// a write); "(idle)" is waiting for the network and is left out of the totals.
import { readFileSync } from "node:fs";

export const PHASES = [
  "HTTP in: request object, routing, dispatch",
  "read body",
  "parse JSON",
  "validate",
  "coerce",
  "handler",
  "serialize",
  "write answer",
  "garbage collection",
  "native, unattributed (program)",
  "other JavaScript",
] as const;
export type Phase = (typeof PHASES)[number];

/** Functions listed under the table, per server. */
const TOP = 12;

type Rule = { phase: Phase; url?: RegExp; name?: RegExp };

/** First match wins, so the specific rules come before the broad ones of the same file. */
const RULES: Rule[] = [
  // raw node:http (bench/servers/raw.ts)
  { phase: "validate", url: /servers\/raw\.ts$/, name: /^(positiveInt|intParam)$/ },
  { phase: "serialize", url: /servers\/raw\.ts$/, name: /^sendJson$/ },
  { phase: "write answer", url: /servers\/raw\.ts$/, name: /^send$/ },
  { phase: "read body", url: /servers\/raw\.ts$/, name: /^bind$/ },
  // raw's 'end' listener: JSON.parse of the body, then the checks' glue and the answer's object
  { phase: "parse JSON", url: /servers\/raw\.ts$/, name: /^$/ },
  { phase: "HTTP in: request object, routing, dispatch", url: /servers\/raw\.ts$/ },
  // every other bench server: the route's handler
  { phase: "handler", url: /bench\/servers\// },
  // unruffled (its build)
  {
    phase: "parse JSON",
    url: /unruffled\/dist\/http\/(request|json-depth)\.js$/,
    name: /^(parseJsonBody|jsonNestsDeeperThan|json)$/,
  },
  { phase: "read body", url: /unruffled\/dist\/(http\/(body|request)|route\/resolve\/read-body)\.js$/ },
  { phase: "coerce", url: /unruffled\/dist\/route\/wire\/coerce\.js$/ },
  { phase: "validate", url: /unruffled\/dist\/route\/resolve\/(resolve-params|validation-issues)\.js$/ },
  { phase: "serialize", url: /unruffled\/dist\/route\/serializer\// },
  { phase: "serialize", url: /unruffled\/dist\/http\/response\.js$/, name: /^(serialize|get body|body)$/ },
  {
    phase: "handler",
    url: /unruffled\/dist\/http\/response\.js$/,
    name: /^(JsonResponse|Response|HttpResponse)$/,
  },
  {
    phase: "write answer",
    url: /unruffled\/dist\/server\/(body-encoder|node-adapter)\.js$/,
    name: /write|encode|send|end/i,
  },
  { phase: "HTTP in: request object, routing, dispatch", url: /unruffled\/dist\// },
  // Fastify 5
  {
    phase: "parse JSON",
    url: /secure-json-parse|fastify\/lib\/content-type-parser\.js$/,
    name: /parse|Parser/,
  },
  { phase: "read body", url: /fastify\/lib\/content-type-parser\.js$/ },
  { phase: "validate", url: /fastify\/lib\/validation\.js$|\/ajv\// },
  {
    phase: "serialize",
    url: /fast-json-stringify|fastify\/lib\/(reply|schemas)\.js$/,
    name: /serial|stringify|asString|asInteger|anonymous/i,
  },
  { phase: "write answer", url: /fastify\/lib\/reply\.js$/ },
  { phase: "HTTP in: request object, routing, dispatch", url: /fastify|find-my-way|avvio|light-my-request/ },
  // Fastify's compiled validators and serializers are made with new Function: no file
  { phase: "validate", url: /^$/, name: /^validate\d*$/ },
  { phase: "serialize", url: /^$/, name: /^anonymous$|^\$main$/ },
  // Node's HTTP machinery
  { phase: "parse JSON", url: /^$/, name: /^parse$/ },
  { phase: "serialize", url: /^$/, name: /^stringify$/ },
  {
    phase: "read body",
    url: /node:_http_incoming$/,
    name: /^(_read|_dump|read|push|resume|_destroy|onError)$/,
  },
  // Node validates the answer's header names and values as they are set or written
  { phase: "write answer", url: /node:_http_common$/, name: /^(checkInvalidHeaderChar|checkIsHttpToken)$/ },
  { phase: "read body", url: /node:_http_common$/, name: /^parserOn(Body|MessageComplete)$/ },
  {
    phase: "read body",
    url: /node:internal\/streams\/(readable|destroy|end-of-stream)$|node:buffer$|node:internal\/buffer$/,
  },
  { phase: "read body", url: /^$/, name: /^(utf8Slice|latin1Slice|asciiSlice|copy)$/ },
  {
    phase: "write answer",
    url: /node:_http_outgoing$|node:internal\/streams\/writable$|node:net$|node:internal\/stream_base_commons$/,
  },
  {
    phase: "write answer",
    url: /node:_http_server$/,
    name: /^(writeHead|_implicitHeader|resOnFinish|onFinish|_finish|emitCloseNT|detachSocket)$/,
  },
  {
    phase: "write answer",
    url: /^$/,
    name: /^(writev|writeUtf8String|writeLatin1String|writeBuffer|writeAsciiString|writevGeneric|shutdown)$/,
  },
  {
    phase: "HTTP in: request object, routing, dispatch",
    url: /node:_http_(server|common|incoming)$|node:url$|node:querystring$/,
  },
];

/** Frames that only carry a call on: the decision is their caller's. */
const CARRIERS =
  /^node:(events|internal\/process\/task_queues|internal\/async_hooks|internal\/timers|timers|internal\/util)$/;

type CallFrame = { functionName: string; url: string };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

function ruleOf(frame: CallFrame): Phase | null {
  if (CARRIERS.test(frame.url)) return null;
  for (const rule of RULES) {
    if (
      (rule.url === undefined || rule.url.test(frame.url)) &&
      (rule.name === undefined || rule.name.test(frame.functionName))
    )
      return rule.phase;
  }
  return null;
}

export type PhaseProfile = {
  server: string;
  requests: number;
  /** microseconds of samples per phase (idle left out) */
  phases: Map<Phase, number>;
  /** self time by function: name, file, phase, µs */
  functions: { name: string; url: string; phase: Phase; us: number }[];
};

/** Reads a profile and sums its samples by phase; `requests` is how many the load completed meanwhile. */
export function readPhases(file: string, server: string, requests: number): PhaseProfile {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const phaseOf = new Map<number, Phase | "idle">();
  const decide = (id: number): Phase | "idle" => {
    const known = phaseOf.get(id);
    if (known !== undefined) return known;
    const name = byId.get(id)?.callFrame.functionName ?? "";
    let phase: Phase | "idle";
    if (name === "(idle)") phase = "idle";
    else if (name === "(garbage collector)") phase = "garbage collection";
    else if (name === "(program)") phase = "native, unattributed (program)";
    else {
      let found: Phase | null = null;
      for (let at: number | undefined = id; at !== undefined && found === null; at = parent.get(at)) {
        const frame = byId.get(at)?.callFrame;
        if (frame !== undefined) found = ruleOf(frame);
      }
      phase = found ?? "other JavaScript";
    }
    phaseOf.set(id, phase);
    return phase;
  };
  const phases = new Map<Phase, number>(PHASES.map((phase) => [phase, 0]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index + 1] ?? 0; // a sample's time is the gap to the next one
    const phase = decide(id);
    if (phase === "idle") return;
    phases.set(phase, (phases.get(phase) ?? 0) + us);
    self.set(id, (self.get(id) ?? 0) + us);
  });
  const byFunction = new Map<string, { name: string; url: string; phase: Phase; us: number }>();
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame ?? { functionName: "?", url: "" };
    const phase = decide(id) as Phase;
    const key = `${frame.functionName} ${frame.url} ${phase}`;
    const entry = byFunction.get(key) ?? {
      name: frame.functionName || "(anonymous)",
      url: frame.url,
      phase,
      us: 0,
    };
    entry.us += us;
    byFunction.set(key, entry);
  }
  return { server, requests, phases, functions: [...byFunction.values()] };
}

/** Several profiles of one server as one: phases, functions and requests added up. */
export function mergeProfiles(profiles: PhaseProfile[]): PhaseProfile {
  const first = profiles[0];
  if (first === undefined) throw new Error("no profile to merge");
  const phases = new Map<Phase, number>(PHASES.map((phase) => [phase, 0]));
  const functions = new Map<string, PhaseProfile["functions"][number]>();
  for (const p of profiles) {
    for (const [phase, us] of p.phases) phases.set(phase, (phases.get(phase) ?? 0) + us);
    for (const f of p.functions) {
      const key = `${f.name} ${f.url} ${f.phase}`;
      const entry = functions.get(key) ?? { ...f, us: 0 };
      entry.us += f.us;
      functions.set(key, entry);
    }
  }
  const requests = profiles.reduce((sum, p) => sum + p.requests, 0);
  return { server: first.server, requests, phases, functions: [...functions.values()] };
}

const perRequest = (p: PhaseProfile, us: number) => us / Math.max(1, p.requests);
const busy = (p: PhaseProfile) => [...p.phases.values()].reduce((a, b) => a + b, 0);
const shortUrl = (url: string) =>
  url.replace(/^file:\/\/.*\/node_modules\//, "").replace(/^file:\/\/.*\/(bench|packages)\//, "$1/");

/**
 * The phases side by side: µs of CPU per request and share of the busy time, per server, and
 * each server's difference from the first (raw node:http, when it was profiled).
 */
export function phaseTable(profiles: PhaseProfile[]): string {
  const base = profiles[0];
  const others = profiles.slice(1);
  const header = [
    "phase",
    ...profiles.flatMap((p) => [`${p.server} µs/req`, "share"]),
    ...others.map((p) => `${p.server} − ${base?.server}`),
  ];
  const cells = (p: PhaseProfile, us: number) => [
    perRequest(p, us).toFixed(2),
    `${((us / Math.max(1, busy(p))) * 100).toFixed(1)} %`,
  ];
  const delta = (p: PhaseProfile, mine: number, theirs: number) =>
    base === undefined ? "" : (perRequest(p, mine) - perRequest(base, theirs)).toFixed(2);
  const rows = PHASES.map((phase) => [
    phase,
    ...profiles.flatMap((p) => cells(p, p.phases.get(phase) ?? 0)),
    ...others.map((p) => delta(p, p.phases.get(phase) ?? 0, base?.phases.get(phase) ?? 0)),
  ]);
  rows.push([
    "total (busy)",
    ...profiles.flatMap((p) => [perRequest(p, busy(p)).toFixed(2), "100 %"]),
    ...others.map((p) => delta(p, busy(p), base === undefined ? 0 : busy(base))),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  const out = [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  for (const p of profiles) {
    out.push("", `${p.server}: most self time (µs per request) [phase]`);
    for (const f of [...p.functions].sort((a, b) => b.us - a.us).slice(0, TOP)) {
      out.push(`  ${perRequest(p, f.us).toFixed(2).padStart(6)}  ${f.name} ${shortUrl(f.url)}  [${f.phase}]`);
    }
  }
  for (const p of others) {
    if (base === undefined) break;
    // Inlining differs between processes (a callee's time may show in its caller): read by phase first.
    out.push("", `${p.server}: most self time added over ${base.server} (µs per request) [phase]`);
    const key = (f: PhaseProfile["functions"][number]) => `${f.name} ${shortUrl(f.url)} [${f.phase}]`;
    const theirs = new Map(base.functions.map((f) => [key(f), perRequest(base, f.us)]));
    const added = p.functions
      .map((f) => ({ key: key(f), us: perRequest(p, f.us) - (theirs.get(key(f)) ?? 0) }))
      .sort((a, b) => b.us - a.us)
      .slice(0, TOP);
    for (const f of added) out.push(`  ${f.us.toFixed(2).padStart(6)}  ${f.key}`);
  }
  return out.join("\n");
}
