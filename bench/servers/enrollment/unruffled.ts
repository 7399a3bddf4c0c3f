// The enrollment service itself (apps/enrollment, built with unruffled) on a fresh seeded SQLite file.
import { createEnrollmentApp } from "../../../apps/enrollment/src/app.ts";
import { seededDatabase } from "./seed.ts";

const seeded = await seededDatabase();
const app = createEnrollmentApp(seeded.database);
await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
console.log(`listening ${app.address()?.port ?? 0}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, async () => {
    await app.close();
    await seeded.discard();
    process.exit(0);
  });
}
