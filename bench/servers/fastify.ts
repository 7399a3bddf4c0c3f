// Fastify 5 as the benchmarks compare it: the measured routes, the CORS-and-compression scope and
// the secured list (fastify-app.ts). FASTIFY_WITHOUT=scope or =secure leaves one part out, to split
// what the parts cost the other routes (against fastify-minimal.ts, with bench:corun).
import { serveFastify } from "./fastify-app.ts";

const without = (process.env.FASTIFY_WITHOUT ?? "").split(",");
await serveFastify({ scope: !without.includes("scope"), secure: !without.includes("secure") });
