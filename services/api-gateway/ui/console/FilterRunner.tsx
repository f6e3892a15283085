import { useState } from 'preact/hooks';
import { messageOf } from '../components/http';
import { api } from './api';
import { useConsole } from './context';
import { SessionEnded } from './session';

type Json = Record<string, unknown>;
type Result = { kind: 'match' | 'no-match' | 'error'; text: string } | null;

/**
 * Runs a filter (its body and headers parts, as JSON texts) on a sample payload and headers with
 * the routing engine (the API's filter test), and says whether it matches.
 */
export function FilterRunner(props: { pid: string; id: string; body: string; headers: string }) {
  const ctx = useConsole();
  const [payload, setPayload] = useState('{}');
  const [headers, setHeaders] = useState('{}');
  const [result, setResult] = useState<Result>(null);
  const parse = (text: string, what: string): Json => {
    try {
      return text.trim() ? (JSON.parse(text) as Json) : {};
    } catch (err) {
      throw new SyntaxError(`${what}: ${messageOf(err)}`, { cause: err });
    }
  };
  const run = async () => {
    setResult(null);
    try {
      const body = {
        request: {
          body: parse(payload, 'sample payload') as unknown,
          headers: parse(headers, 'sample headers'),
        },
        schema: { body: parse(props.body, 'body filter'), headers: parse(props.headers, 'header filter') },
      };
      const r = await ctx.call(api.testSubscriptionFilter, { params: { projectID: props.pid }, body });
      setResult(
        r.is_match
          ? { kind: 'match', text: 'Match: this subscription would receive the event.' }
          : { kind: 'no-match', text: 'No match: this subscription would skip the event.' },
      );
    } catch (err) {
      if (err instanceof SessionEnded) return;
      setResult({
        kind: 'error',
        text: err instanceof SyntaxError ? `Not valid JSON: ${err.message}` : messageOf(err),
      });
    }
  };
  return (
    <div class="filter-runner">
      <div class="grid">
        <div class="field">
          <label for={`${props.id}-payload`}>Sample payload</label>
          <textarea
            id={`${props.id}-payload`}
            value={payload}
            spellcheck={false}
            onInput={(e) => setPayload(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={`${props.id}-headers`}>Sample headers</label>
          <textarea
            id={`${props.id}-headers`}
            value={headers}
            spellcheck={false}
            onInput={(e) => setHeaders(e.currentTarget.value)}
          />
        </div>
      </div>
      <button type="button" id={`${props.id}-run`} onClick={run}>
        Test the filter
      </button>
      <p
        id={`${props.id}-result`}
        role="status"
        class={result?.kind === 'error' ? 'alert' : `match ${result?.kind === 'match' ? 'yes' : 'no'}`}
      >
        {result?.text ?? ''}
      </p>
    </div>
  );
}
