/** What a runtime's own server must offer `serve()`. */
export interface NativeServer {
  readonly hostname: string;
  readonly port: number;
  /** Stops accepting; resolves once the connections in flight are done (or `force`d shut). */
  stop(deadline: Promise<void>): Promise<void>;
}
