import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A key and a self-signed certificate for 127.0.0.1 and localhost, PEM, made by Debian's openssl. */
export interface SelfSigned {
  key: string;
  cert: string;
}

/**
 * Makes a fresh key and certificate (an EC key: a few milliseconds) for a TLS server in a test; a
 * client must not check it (`rejectUnauthorized: false`).
 *
 * @example const { key, cert } = selfSigned(); https.createServer({ key, cert }, app.nodeHandler)
 */
export function selfSigned(): SelfSigned {
  const folder = mkdtempSync(join(tmpdir(), "unruffled-tls-"));
  try {
    const key = join(folder, "key.pem");
    const cert = join(folder, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
