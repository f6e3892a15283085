import { AttemptList } from '../components/AttemptDetail';
import { confirmAction } from '../components/ConfirmDialog';
import { useLoad } from '../components/useLoad';
import { portal, portalCall } from './api';
import { usePortal } from './context';
import { Loaded } from '../components/Loaded';

/** The selected delivery: every attempt with the body it sent; a managing link replays its event. */
export function DeliveryDetail({ id, tick }: { id: string; tick: number }) {
  const { link, act } = usePortal();
  const load = useLoad(
    async () => ({ d: await portalCall(portal.portalGetDelivery, { params: { deliveryID: id } }) }),
    [id, tick],
  );
  return (
    <section id="detail" aria-labelledby="detail-heading">
      <Loaded load={load}>
        {({ d }) => (
          <>
            <h2 id="detail-heading">
              <span>
                Delivery{' '}
                <span class="mono" id="detail-id">
                  {d.uid} · {d.event_type}
                </span>
              </span>
              {link.can_manage_endpoint && (
                <button
                  type="button"
                  id="replay-event"
                  onClick={async () => {
                    if (
                      await confirmAction(
                        'Replay this event to your endpoints? Each gets a new delivery.',
                        'Replay',
                      )
                    )
                      await act(
                        () => portalCall(portal.portalReplayEvent, { params: { eventID: d.event_id } }),
                        'Event replayed; the new deliveries appear in a moment',
                      );
                  }}
                >
                  Replay event
                </button>
              )}
            </h2>
            <AttemptList attempts={d.attempts ?? []} sent={d} />
          </>
        )}
      </Loaded>
    </section>
  );
}
