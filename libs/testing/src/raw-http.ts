import type { Server } from 'node:http';
import { connect } from 'node:net';

export interface RawHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes as they are (no HTTP client would send a bad method token or a 100,000-character
 * request line) to the app's server on a loopback port, and reads the answer until the server
 * closes the connection (send `Connection: close` with a valid request).
 */
export async function sendRawHttp(server: Server, raw: string | Buffer): Promise<RawHttpAnswer> {
  if (!server.listening) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  const { port } = server.address() as { port: number };
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    const answered = () => resolve(Buffer.concat(chunks).toString('utf8'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', answered);
    // A server that answers before reading everything closes the socket under the rest: a reset
    // after the answer arrived is still an answer.
    socket.on('error', (error) => (chunks.length > 0 ? answered() : reject(error)));
    // Written without ending: Node's server drops a request whose client half-closes early.
    socket.write(raw);
  });
  const headerEnd = text.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = text
    .slice(0, headerEnd === -1 ? text.length : headerEnd)
    .split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: headerEnd === -1 ? '' : text.slice(headerEnd + 4),
  };
}
