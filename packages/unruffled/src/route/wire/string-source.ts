/**
 * Raw strings by wire name, as a source gives them (query, headers, cookies, path parameters, form
 * fields): one string, or an array for a repeated name.
 */
export type StringSource = Readonly<Record<string, string | readonly string[] | undefined>>;
