// `unruffled/postgres`: what several instances of an app on one PostgreSQL database need. It imports
// nothing from `pg`: pass your own `pg.Pool` (or anything with its `connect()`).
export { type LockConnection, type LockPool, tryAdvisoryLock, withAdvisoryLock } from "./advisory-lock.ts";
