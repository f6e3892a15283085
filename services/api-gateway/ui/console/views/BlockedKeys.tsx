import { Allowed } from '../../components/grants';
import type { ResponseOf } from '@hookrail/api-contract';
import { confirmAction } from '../../components/ConfirmDialog';
import { when } from '../../components/format';
import { Loaded } from '../../components/Loaded';
import { useLoad } from '../../components/useLoad';
import { act } from '../actions';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { Link } from '../Link';

type BlockedKey = ResponseOf<typeof api.listBlockedKeys>[number];

/** The key as an operator typed it in the subscription (`key:` is how it is stored). */
const keyLabel = (k: BlockedKey) => (k.key === 'endpoint' ? 'the whole endpoint' : `key ${k.key.slice(4)}`);

/**
 * The endpoint's ordering keys that hold deliveries (docs/ordered-delivery.md): "12 held behind
 * delivery X since 10:42", with a button that asks the dispatcher to skip that head.
 */
export function BlockedKeys({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  const params = { projectID: pid, endpointID: id };
  const load = useLoad(() => ctx.call(api.listBlockedKeys, { params }), [pid, id, ctx.tick]);
  return (
    <Loaded load={load}>
      {(keys) =>
        keys.length === 0 ? null : (
          <section class="card" id="blocked-keys">
            <h2>Blocked ordering keys</h2>
            <ul>
              {keys.map((k) => (
                <li key={k.key}>
                  {keyLabel(k)}: {k.held} held behind delivery{' '}
                  <Link href={`${pageProject(pid)}/deliveries/${k.head_delivery_id}`}>
                    {k.head_delivery_id}
                  </Link>{' '}
                  since {when(k.blocked_since)}
                  {k.head_status && <span class="muted"> (head ended {k.head_status})</span>}{' '}
                  {k.skip_requested_at ? (
                    <span class="muted">unblock requested</span>
                  ) : (
                    <Allowed op={api.unblockKey}>
                      <button
                        type="button"
                        onClick={async () => {
                          if (
                            !(await confirmAction(
                              `Skip delivery ${k.head_delivery_id} and send the next?`,
                              'Unblock',
                            ))
                          )
                            return;
                          await act(
                            ctx,
                            () =>
                              ctx.call(api.unblockKey, {
                                params,
                                body: { key: k.key, head_delivery_id: k.head_delivery_id },
                              }),
                            'Unblock requested',
                          );
                        }}
                      >
                        Unblock
                      </button>
                    </Allowed>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )
      }
    </Loaded>
  );
}
