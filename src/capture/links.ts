/** The policyholder's link for a session token (DESIGN §16). */
export function captureLink(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/$/, "")}/c/${token}`;
}
