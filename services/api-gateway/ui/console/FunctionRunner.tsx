import { useState } from 'preact/hooks';
import { prettyJson } from '../components/format';
import { messageOf } from '../components/http';
import { api } from './api';
import { useConsole } from './context';
import { SessionEnded } from './session';

/**
 * Runs a transform function (`function transform(payload) {…}`) on a sample payload in the
 * delivery sandbox, the API's function test: the result or the function's error.
 */
export function FunctionRunner(props: {
  pid: string;
  id: string;
  fn: string;
  what: string;
  sample?: string;
}) {
  const ctx = useConsole();
  const [sample, setSample] = useState(props.sample ?? '{}');
  const [out, setOut] = useState('');
  const run = async () => {
    setOut('');
    try {
      const payload = JSON.parse(sample) as unknown;
      const r = await ctx.call(api.testSubscriptionFunction, {
        params: { projectID: props.pid },
        body: { function: props.fn, payload },
      });
      setOut(prettyJson(r.payload));
    } catch (err) {
      if (err instanceof SessionEnded) return;
      setOut(err instanceof SyntaxError ? `Not valid JSON: ${err.message}` : messageOf(err));
    }
  };
  return (
    <div class="function-runner">
      <div class="field">
        <label for={`${props.id}-payload`}>Sample input for the {props.what}</label>
        <textarea
          id={`${props.id}-payload`}
          value={sample}
          spellcheck={false}
          onInput={(e) => setSample(e.currentTarget.value)}
        />
      </div>
      <button type="button" id={`${props.id}-run`} disabled={!props.fn.trim()} onClick={run}>
        Run the {props.what}
      </button>
      <pre id={`${props.id}-result`} aria-live="polite">
        {out}
      </pre>
    </div>
  );
}
