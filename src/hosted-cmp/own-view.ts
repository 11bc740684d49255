/**
 * The second layer of an instance without `tcf` settings: its own purposes (or the page's,
 * from the client info, when the instance lists none), one consent switch each, and its own
 * vendor list with the purposes each one serves.
 */
import type { ClientInfo } from '../wire/client-info.ts';
import type { PageConfig, PagePurpose } from './page-config.ts';
import type { SecondLayerModel } from './second-layer.ts';

/** The instance's purposes, else the page's required ones and those it holds choices for (at most 50). */
export function ownPurposes(config: PageConfig, info: ClientInfo): readonly PagePurpose[] {
  if (config.purposes.length) return config.purposes;
  const ids = [...(info.clientConfig?.purposeConsentRequired ?? []), ...Object.keys(info.purposeConsents ?? {})];
  return [...new Set(ids)].slice(0, 50).map((id) => ({ id, label: id }));
}

export function ownModel(config: PageConfig, purposes: readonly PagePurpose[]): SecondLayerModel {
  const consent = config.messages['consent'] ?? '';
  return {
    sections: [
      {
        title: config.messages['purposes'] ?? '',
        items: purposes.map((p) => ({
          name: p.label,
          ...(p.description ? { description: p.description } : {}),
          switches: [{ key: `c:${p.id}`, label: consent }],
        })),
      },
    ],
    vendors: config.vendors.map((vendor, index) => ({
      id: String(index),
      name: vendor.name,
      switches: [],
      details: () => {
        const box = document.createElement('p');
        const labels = new Map(purposes.map((p) => [p.id, p.label]));
        box.textContent = (vendor.purposes ?? []).map((id) => labels.get(id) ?? id).join(', ');
        if (vendor.url) {
          const link = Object.assign(document.createElement('a'), {
            href: vendor.url,
            target: '_blank',
            rel: 'noopener noreferrer',
            textContent: config.messages['policy'] ?? '',
          });
          box.append(box.textContent ? ' · ' : '', link);
        }
        return box;
      },
    })),
  };
}
