/**
 * Which TCF vendor a request's host belongs to: a small table of ad-tech hosts we know (the
 * Prebid bidder adapters' endpoints and the common tags beside them), each with its id in the
 * IAB's Global Vendor List (docs/decisions/page-audit-vendor-tags.md says why a table and not
 * the vendor list). A table key covers its subdomains. The ids are those the vendors register
 * under; check a row against the current list before relying on it in a dispute.
 */

export type VendorHost = { readonly id: number; readonly name: string };
export type VendorHostTable = Readonly<Record<string, VendorHost>>;

export const VENDOR_HOSTS: VendorHostTable = {
  'doubleclick.net': { id: 755, name: 'Google Advertising Products' },
  'googlesyndication.com': { id: 755, name: 'Google Advertising Products' },
  'googleadservices.com': { id: 755, name: 'Google Advertising Products' },
  'adnxs.com': { id: 32, name: 'Xandr (Microsoft)' },
  'rubiconproject.com': { id: 52, name: 'Magnite (Rubicon Project)' },
  'pubmatic.com': { id: 76, name: 'PubMatic' },
  'casalemedia.com': { id: 10, name: 'Index Exchange' },
  'openx.net': { id: 69, name: 'OpenX' },
  'criteo.com': { id: 91, name: 'Criteo' },
  'criteo.net': { id: 91, name: 'Criteo' },
  'adsrvr.org': { id: 21, name: 'The Trade Desk' },
  'amazon-adsystem.com': { id: 793, name: 'Amazon Advertising' },
  'quantserve.com': { id: 11, name: 'Quantcast' },
  'taboola.com': { id: 42, name: 'Taboola' },
  'outbrain.com': { id: 164, name: 'Outbrain' },
  'smartadserver.com': { id: 45, name: 'Equativ (Smart AdServer)' },
  'lijit.com': { id: 13, name: 'Sovrn' },
  '3lift.com': { id: 28, name: 'TripleLift' },
  'teads.tv': { id: 132, name: 'Teads' },
  'adform.net': { id: 50, name: 'Adform' },
  'sharethrough.com': { id: 80, name: 'Sharethrough' },
  'gumgum.com': { id: 61, name: 'GumGum' },
  'rlcdn.com': { id: 97, name: 'LiveRamp' },
  'id5-sync.com': { id: 131, name: 'ID5' },
  'crwdcntrl.net': { id: 95, name: 'Lotame' },
  '360yield.com': { id: 253, name: 'Improve Digital' },
  'seedtag.com': { id: 157, name: 'Seedtag' },
  'onetag-sys.com': { id: 241, name: 'OneTag' },
};

/** The vendor whose table key is the host or a parent of it (the longest such key), or null. */
export function vendorOfHost(
  host: string,
  table: VendorHostTable = VENDOR_HOSTS,
): (VendorHost & { key: string }) | null {
  const bare = host.toLowerCase().replace(/\.$/, '');
  let best: (VendorHost & { key: string }) | null = null;
  for (const [key, vendor] of Object.entries(table)) {
    const isCovered = bare === key || bare.endsWith(`.${key}`);
    if (isCovered && (best === null || key.length > best.key.length)) best = { ...vendor, key };
  }
  return best;
}
