import { metaEventDestination } from './meta-event-destination';

describe('meta event destination', () => {
  const enabled = { is_enabled: true, url: 'https://example.com/meta', secret: 's', event_type: [] };

  it('sends every type when the project enables meta events with an empty selection', () => {
    expect(metaEventDestination(enabled, 'endpoint.created')).toEqual({
      kind: 'send',
      url: 'https://example.com/meta',
      secret: 's',
    });
  });

  it('sends only selected types when the selection is not empty', () => {
    const config = { ...enabled, event_type: ['eventdelivery.failed'] };
    expect(metaEventDestination(config, 'eventdelivery.failed').kind).toBe('send');
    expect(metaEventDestination(config, 'endpoint.created')).toEqual({
      kind: 'discard',
      reason: 'meta event type endpoint.created is not selected',
    });
  });

  it('discards when meta events are disabled, unset, or have no URL', () => {
    expect(metaEventDestination({ ...enabled, is_enabled: false }, 'endpoint.created').kind).toBe('discard');
    expect(metaEventDestination(undefined, 'endpoint.created').kind).toBe('discard');
    expect(metaEventDestination({ ...enabled, url: undefined }, 'endpoint.created')).toEqual({
      kind: 'discard',
      reason: 'the project has no meta event URL',
    });
  });
});
