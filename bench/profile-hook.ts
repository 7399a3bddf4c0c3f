// Loaded into a server by bench/profile.ts (`node --import bench/profile-hook.ts server.ts`): the
// first SIGUSR2 starts V8's CPU profiler, the second stops it and writes the profile to
// $BENCH_PROFILE_OUT. The warm-up before the first signal is not profiled, and nothing of the
// inspector is even connected until then.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

let session: Session | null = null;

process.on("SIGUSR2", async () => {
  if (session === null) {
    session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    const interval = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 250);
    await session.post("Profiler.setSamplingInterval", { interval });
    await session.post("Profiler.start");
    process.stdout.write("bench-profile: started\n");
    return;
  }
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  session = null;
  writeFileSync(process.env.BENCH_PROFILE_OUT ?? "server.cpuprofile", JSON.stringify(profile));
  process.stdout.write("bench-profile: written\n");
});
