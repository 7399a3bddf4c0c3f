import { z } from "zod";
import { ValueError } from "../errors.ts";
import { JsonResponse } from "../http/response.ts";
import { originCheck } from "../middleware/cors-origins.ts";
import { type AnalyseOptions, analyseEndpoint } from "../route/analyse/analyse-endpoint.ts";
import { notCarriedByJson } from "../route/analyse/json-carriage.ts";
import type { EndpointDefinition } from "../route/declare/endpoint.ts";
import { modelSerializer } from "../route/serializer/response-serializers.ts";
import { passesUncheckedNumbers } from "../route/wire/json-numbers.ts";
import type { WebSocketDefinition } from "./declare.ts";
import type { WebSocketDescription } from "./description.ts";

export const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
export const DEFAULT_HIGH_WATER_MARK = 1024 * 1024;
export const DEFAULT_PING_INTERVAL = 30_000;

/**
 * Analyses a WebSocket route once, when the app is built: its parameters exactly as an endpoint's
 * (the upgrade is a GET request), its models compiled, its settings checked. Raises `ValueError`
 * naming the route and the fix.
 *
 * @example analyseWebSocket(chat, { path: "/chat/{room}", label, fileSizeLimit }).upgrade.security
 */
export function analyseWebSocket(
  definition: WebSocketDefinition,
  options: AnalyseOptions & {
    /** `RESPONSES.validate: "strict"`: outbound messages are checked as answers are. */
    strictOutbound?: boolean;
  },
): WebSocketDescription {
  const { label } = options;
  // The upgrade request is an endpoint that answers 101: the same analysis, the same resolution.
  const upgradeEndpoint: EndpointDefinition = {
    kind: "endpoint",
    name: definition.name,
    params: definition.params,
    returns: JsonResponse,
    handler: () => {
      throw new TypeError(`${label} is a WebSocket route; its upgrade has no HTTP handler`);
    },
  };
  const upgrade = analyseEndpoint(upgradeEndpoint, options);
  const body = upgrade.byLocation.body[0];
  if (body !== undefined) {
    throw new ValueError(
      `${label}: the parameter "${body.name}" is read from the body, but a WebSocket upgrade has none; read it from the inbound messages, or from the query, a header or a cookie.`,
    );
  }
  for (const model of ["inbound", "outbound"] as const) {
    if (typeof (definition[model] as { _zod?: unknown } | undefined)?._zod !== "object") {
      throw new ValueError(
        `${label}: ${model} must be a Zod schema, such as z.discriminatedUnion("type", [...]).`,
      );
    }
    // Messages are JSON text, as bodies and answers are.
    const notCarried = notCarriedByJson(
      definition[model] as z.ZodType,
      model === "inbound" ? "request" : "answer",
    );
    if (notCarried !== undefined) {
      const part = notCarried.path === "" ? "the model" : `the field "${notCarried.path}"`;
      throw new ValueError(
        `${label}: the ${model} messages cannot be carried as JSON: ${part} is a ${notCarried.type}; declare ${notCarried.instead}.`,
      );
    }
  }
  const maxPayload = positive(definition.maxPayload, DEFAULT_MAX_PAYLOAD, "maxPayload", label);
  const highWaterMark = positive(definition.highWaterMark, DEFAULT_HIGH_WATER_MARK, "highWaterMark", label);
  const lowWaterMark = positive(
    definition.lowWaterMark,
    Math.floor(highWaterMark / 4),
    "lowWaterMark",
    label,
  );
  if (lowWaterMark > highWaterMark) {
    throw new ValueError(
      `${label}: lowWaterMark (${lowWaterMark}) must not exceed highWaterMark (${highWaterMark}).`,
    );
  }
  const pingInterval = definition.pingInterval ?? DEFAULT_PING_INTERVAL;
  if (!Number.isInteger(pingInterval) || pingInterval < 0) {
    throw new ValueError(`${label}: pingInterval must be a whole number of milliseconds (0: no pings).`);
  }
  const onInvalid = oneOf(definition.onInvalid, ["close", "skip"] as const, "onInvalid", label);
  const onBackpressure = oneOf(
    definition.onBackpressure,
    ["wait", "drop", "close"] as const,
    "onBackpressure",
    label,
  );
  const origins = definition.origins;
  const outbound = modelSerializer(definition.outbound as z.ZodType, 101, "messages", label);
  return {
    websocket: definition,
    label,
    upgrade,
    inbound: z.compile(definition.inbound as z.ZodType),
    inboundUncheckedNumbers: passesUncheckedNumbers(definition.inbound as z.ZodType),
    outbound,
    writeOutbound: options.strictOutbound === true ? outbound.writeChecked : outbound.write,
    onInvalid,
    maxPayload,
    highWaterMark,
    lowWaterMark,
    onBackpressure,
    pingInterval,
    allowsOrigin: origins === undefined ? undefined : origins === "*" ? "*" : originCheck(origins, label),
  };
}

function positive(value: number | undefined, fallback: number, name: string, label: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new ValueError(
      `${label}: ${name} must be a positive whole number of bytes, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function oneOf<T extends string>(
  value: T | undefined,
  allowed: readonly T[],
  name: string,
  label: string,
): T {
  if (value === undefined) return allowed[0]!;
  if (!allowed.includes(value)) {
    throw new ValueError(
      `${label}: ${name} must be one of ${allowed.map((each) => `"${each}"`).join(", ")}.`,
    );
  }
  return value;
}
