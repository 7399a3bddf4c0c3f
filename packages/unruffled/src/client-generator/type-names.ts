/** Names the generated module declares itself; a model of the same name gets a suffix. */
const RESERVED = new Set([
  "Answer",
  "CallOptions",
  "Client",
  "ClientOptions",
  "EventsAnswer",
  "OperationPlan",
  "Unexpected",
  "OPERATIONS",
  "bindOperations",
  "createClient",
  "Blob",
  "Promise",
  "Record",
]);

/**
 * A member's words as one TypeScript type name, letters of any script kept (`get_élèves_id` →
 * `GetÉlèvesId`), with only what an identifier may hold; `fallback` before one that cannot start it.
 */
function typeNameOf(member: string, fallback: string): string {
  const base = member
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => word.replace(/^./u, (first) => first.toUpperCase()))
    .join("")
    .replace(/[^\p{ID_Continue}$]/gu, "");
  return /^[\p{ID_Start}$_]/u.test(base) ? base : `${fallback}${base}`;
}

/**
 * Hands out the type names of one module, each once: a component `Student-Input` becomes
 * `Student_Input`, an operation `list_students` gives `ListStudentsParams` and `ListStudentsResult`.
 */
export class TypeNames {
  private readonly taken = new Set(RESERVED);

  /** A type name for a model, as close to its component name as TypeScript allows. */
  claim(wanted: string): string {
    let base = wanted.replace(/[^A-Za-z0-9_$]/g, "_");
    if (/^[0-9]/.test(base)) base = `_${base}`;
    return this.unique(base, "Model");
  }

  /** The `Params` and `Result` type names of an operation. */
  claimOperation(member: string): { params: string; result: string } {
    const base = typeNameOf(member, "Operation");
    for (let suffix = ""; ; suffix = String(Number(suffix || "1") + 1)) {
      const params = `${base}${suffix}Params`;
      const result = `${base}${suffix}Result`;
      if (!this.taken.has(params) && !this.taken.has(result)) {
        this.taken.add(params);
        this.taken.add(result);
        return { params, result };
      }
    }
  }

  /** `ChatParams`, `ChatInbound`, `ChatOutbound` for the WebSocket member `chat`, unique in the module. */
  claimSocket(member: string): { params: string; inbound: string; outbound: string } {
    const base = typeNameOf(member, "Socket");
    for (let suffix = ""; ; suffix = String(Number(suffix || "1") + 1)) {
      const names = {
        params: `${base}${suffix}Params`,
        inbound: `${base}${suffix}Inbound`,
        outbound: `${base}${suffix}Outbound`,
      };
      if (Object.values(names).every((name) => !this.taken.has(name))) {
        for (const name of Object.values(names)) this.taken.add(name);
        return names;
      }
    }
  }

  private unique(base: string, suffix: string): string {
    let name = base;
    for (let count = 1; this.taken.has(name); count += 1) name = `${base}${suffix}${count > 1 ? count : ""}`;
    this.taken.add(name);
    return name;
  }
}
