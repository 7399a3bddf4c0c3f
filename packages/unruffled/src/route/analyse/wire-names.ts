import { ValueError } from "../../errors.ts";
import { isDeepStrictEqual } from "../../node-builtins.ts";
import { Param } from "../declare/markers.ts";
import type { ParamDescription, WireField } from "../description.ts";

interface Claim {
  param: ParamDescription;
  field: WireField;
  declaration: unknown;
  owner: string | undefined;
}

/**
 * Rule 15, across an endpoint and its dependencies: within one source, no two parameters (or model
 * fields) read the same name. The same name in two sources is allowed; so is one parameter that two
 * dependencies declare alike (the same marker, schema and options), which is then read once.
 *
 * @example const names = new WireNames(label); names.claim(page, declaration, undefined) // undefined: a new name
 */
export class WireNames {
  private readonly label: string;
  private readonly claims = new Map<string, Claim>();

  constructor(label: string) {
    this.label = label;
  }

  /**
   * Registers the names a parameter reads. Returns the parameter that already reads them when this
   * is the same declaration in another dependency; throws a `ValueError` for any other clash.
   */
  claim(
    param: ParamDescription,
    declaration: unknown,
    owner: string | undefined,
  ): ParamDescription | undefined {
    for (const field of param.fields) {
      const other = this.claims.get(keyOf(param, field));
      if (other === undefined) continue;
      if (other.owner !== owner && sameDeclaration(other.declaration, declaration)) return other.param;
      const both = `${named(other)} and ${named({ param, field, owner })}`;
      throw new ValueError(
        other.owner === owner
          ? `${this.label}: parameters ${both} both read the ${param.location} name "${field.wireName}". Rename one of them or give it an alias.`
          : `${this.label}: parameters ${both} both read the ${param.location} name "${field.wireName}", declared differently. Declare it once, in a dependency both use, or give both the same declaration.`,
      );
    }
    for (const field of param.fields)
      this.claims.set(keyOf(param, field), { param, field, declaration, owner });
    return undefined;
  }
}

function keyOf(param: ParamDescription, field: WireField): string {
  return `${param.location}\u0000${field.wireName}`;
}

function named({ param, field, owner }: Omit<Claim, "declaration">): string {
  const name = field.key === null ? `"${param.name}"` : `"${param.name}" (field "${field.key}")`;
  return owner === undefined ? name : `${name} of ${owner}`;
}

/** One declaration object, or two markers with the same schema object and equal options. */
function sameDeclaration(first: unknown, second: unknown): boolean {
  if (first === second) return true;
  return (
    first instanceof Param &&
    second instanceof Param &&
    first.kind === second.kind &&
    first.schema === second.schema &&
    isDeepStrictEqual(first.options, second.options)
  );
}
