/** The Authorization header HTTP Basic sends for these credentials. */
export function basic(userId: string, password: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${userId}:${password}`).toString('base64')}` };
}
