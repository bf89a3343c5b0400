/** The link of a reset or invitation email: the office app's page with the token and the email. */
export function passwordLink(baseUrl: string, token: string, email: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set('token', token);
  url.searchParams.set('email', email);
  return url.toString();
}
