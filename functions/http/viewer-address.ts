import { isIP } from 'node:net';

/** The header CloudFront sets to the viewer's address and port (AWS: "Add CloudFront request headers"). */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/**
 * The address a dashboard request came from. In AWS the dashboard API answers only what came
 * through the dashboard's CloudFront distribution (lib/dashboard-origin-key.ts), so the connection
 * API Gateway sees, `sourceIp`, is one of CloudFront's, shared by everyone that edge serves: sign-in
 * limits counted on it would let one attacker lock out a city, and the audit log would name
 * CloudFront. CloudFront names the viewer in `CloudFront-Viewer-Address` (`198.51.100.10:46532`,
 * `2001:db8::7:46532`), which it sets itself over any the viewer sent; the local gateway sets it the
 * same way (local/gateway-edge.ts). Without it (an event made by a test), the connection's address.
 */
export function viewerAddress(headers: Record<string, string | undefined>, sourceIp: string | undefined): string {
  const forwarded = headers[VIEWER_ADDRESS_HEADER]?.trim();
  const portAt = forwarded?.lastIndexOf(':') ?? -1;
  if (forwarded && portAt > 0 && /^\d{1,5}$/.test(forwarded.slice(portAt + 1))) {
    const address = forwarded.slice(0, portAt).replace(/^\[(.*)\]$/, '$1');
    if (isIP(address)) return address;
  }
  return sourceIp ?? 'unknown';
}
