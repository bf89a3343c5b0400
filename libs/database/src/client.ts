import { Client, type ClientConfig } from 'pg';

/** The URL of database `name` on the server of `serverUrl` (its credentials and options kept). */
export function urlOfDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Runs `work` on a connection of its own to `config` (a URL, or pg's client options), closed
 * afterwards whatever happens: one-off statements of tools, benchmarks and test setups, outside
 * any pool.
 */
export async function withClient<T>(
  config: string | ClientConfig,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client(typeof config === 'string' ? { connectionString: config } : config);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
