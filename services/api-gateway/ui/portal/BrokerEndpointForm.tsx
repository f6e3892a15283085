import { destinationBody, DestinationFields, destinationValues } from '../components/DestinationFields';
import { Form } from '../components/form/Form';
import { TextField } from '../components/form/fields';
import { list, text } from '../components/form/values';
import { portal, portalCall } from './api';
import { usePortal } from './context';

/** Adds an endpoint that publishes to the holder's own broker (docs/destinations.md). */
export function BrokerEndpointForm() {
  const { act } = usePortal();
  return (
    <details id="broker-endpoint">
      <summary>Add a broker destination (Kafka, RabbitMQ, SQS, Pub/Sub)</summary>
      <Form
        id="broker-form"
        label="Add a broker destination"
        schema={portal.portalCreateEndpoint.body}
        initial={{ ...destinationValues(), type: 'kafka', name: '', event_types: '' }}
        submitLabel="Add endpoint"
        onSubmit={async (v) => {
          const types = list(v, 'event_types');
          await portalCall(portal.portalCreateEndpoint, {
            body: { name: text(v, 'name')!, ...destinationBody(v), ...(types ? { event_types: types } : {}) },
          });
          await act(async () => undefined, 'Endpoint added');
        }}
      >
        {(v) => (
          <>
            <TextField name="name" label="Name" />
            <DestinationFields v={v} editing={false} />
            <TextField name="event_types" label="Event types" hint="comma-separated (empty: all)" />
          </>
        )}
      </Form>
    </details>
  );
}
