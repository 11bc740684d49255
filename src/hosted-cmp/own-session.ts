/**
 * The second layer of an instance without `tcf` settings: its own purposes, each with a
 * consent switch starting from the client info's stored choice. Accept all and Reject all set
 * every purpose; Save choices reports the switches, `accept` when any is on.
 */
import { own } from '../wire/values.ts';
import type { ClientInfo } from '../wire/client-info.ts';
import type { DetailsSession } from './details-api.ts';
import { renderer } from './layer-renderer.ts';
import { ownModel, ownPurposes } from './own-view.ts';
import type { PageConfig } from './page-config.ts';
import type { Switches } from './switches.ts';

export function ownSession(config: PageConfig, info: ClientInfo): DetailsSession {
  const purposes = ownPurposes(config, info);
  const state: Switches = new Map(purposes.map((p) => [`c:${p.id}`, own(info.purposeConsents ?? {}, p.id) === true]));
  return {
    render: renderer(ownModel(config, purposes), state, config.messages),
    decide(kind) {
      const purposeConsents = Object.fromEntries(
        purposes.map((p) => [p.id, kind === 'save' ? state.get(`c:${p.id}`) === true : kind === 'accept']),
      );
      const action = kind === 'save' ? (Object.values(purposeConsents).some(Boolean) ? 'accept' : 'reject') : kind;
      return { action, ...(purposes.length ? { purposeConsents } : {}) };
    },
  };
}
