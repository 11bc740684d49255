/**
 * Whether a host name is, or resolves to, a loopback or private address (`localhost` too): a page
 * address that may only be reached when the reader asked for such an address in the first place
 * (no redirect from a public page to the auditor's own network). The address ranges are the URL
 * mode's (`cli/private-address.ts`).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../private-address.ts';

export async function isPrivateHost(host: string): Promise<boolean> {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare)) return isPrivateAddress(bare);
  try {
    const addresses = await lookup(bare, { all: true });
    return addresses.some(({ address }) => isPrivateAddress(address));
  } catch {
    return false;
  }
}
