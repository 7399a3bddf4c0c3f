import type { ServerSocket } from "./server-socket.ts";

/**
 * Pings the sockets of one interval and cuts those that answered none of the last two pings: a
 * peer that vanished without a closing handshake (a laptop closed, a cable pulled). Two, not one:
 * after the event loop was busy for a while, the timer may run before a pong that has already
 * arrived is read. One timer for all
 * the sockets of an interval, running only while there are some, so an idle app holds no timer.
 */
export class Heartbeat {
  private readonly interval: number;
  private readonly sockets = new Set<ServerSocket>();
  private timer: NodeJS.Timeout | undefined;

  constructor(interval: number) {
    this.interval = interval;
  }

  add(socket: ServerSocket): void {
    this.sockets.add(socket);
    this.timer ??= setInterval(() => this.beat(), this.interval).unref();
  }

  delete(socket: ServerSocket): void {
    this.sockets.delete(socket);
    if (this.sockets.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private beat(): void {
    for (const socket of this.sockets) {
      if (socket.unanswered >= 2) socket.terminate();
      else socket.ping();
    }
  }
}
