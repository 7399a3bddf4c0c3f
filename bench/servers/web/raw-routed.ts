// raw-contract.ts without unruffled's request contract: no header read, no id sent, as Elysia's hello
// and list. `npm run bench:corun -- --runtime bun --a bench/servers/web/raw-contract.ts --b
// bench/servers/web/raw-routed.ts` is what the contract alone costs on Bun, in one server's code.
process.env.WITHOUT_CONTRACT = "1";
await import("./raw-contract.ts");
