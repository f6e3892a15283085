import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ConsoleSignInOptionsResponse } from '@hookrail/api-contract';
import { messageOf } from '../components/http';
import { fetchSignInOptions, signIn, type Session } from './session';

interface Props {
  heading: string;
  note?: string;
  onSignedIn: (session: Session) => void;
}

/** The sign-in form: the key is exchanged for an httpOnly session cookie and not kept here. */
export function SignIn({ heading, note, onSignedIn }: Props) {
  const [error, setError] = useState('');
  const options = useSignInOptions();
  const key = useRef<HTMLInputElement>(null);
  // On mount, not after the next paint: keys typed as soon as the form shows land in the field.
  useLayoutEffect(() => {
    document.title = 'Sign in · Hookrail console';
    key.current?.focus();
  }, []);
  return (
    <form
      class="signin"
      id="sign-in"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          const session = await signIn(key.current!.value);
          key.current!.value = '';
          onSignedIn(session);
        } catch (err) {
          setError(messageOf(err));
        }
      }}
    >
      <h1>{heading}</h1>
      {note && (
        <p class="muted" id="sign-in-note">
          {note}
        </p>
      )}
      <div class="alert" role="alert" hidden={!error}>
        {error}
      </div>
      {options.single_sign_on && (
        <p>
          <a class="button primary" id="single-sign-on" href={options.single_sign_on.login_url}>
            Sign in with single sign-on
          </a>
        </p>
      )}
      {options.key && <KeyFields keyRef={key} />}
    </form>
  );
}

/** Key sign-in until the gateway says otherwise (an older gateway has no options to tell). */
function useSignInOptions(): ConsoleSignInOptionsResponse {
  const [options, setOptions] = useState<ConsoleSignInOptionsResponse>({ key: true, single_sign_on: null });
  useEffect(() => {
    fetchSignInOptions().then(setOptions, () => undefined);
  }, []);
  return options;
}

function KeyFields({ keyRef }: { keyRef: { current: HTMLInputElement | null } }) {
  return (
    <>
      <label for="key">Admin key or project API key</label>
      <input id="key" name="key" type="password" autocomplete="off" required ref={keyRef} />
      <button class="primary" type="submit">
        Sign in
      </button>
      <p class="muted">
        The key is exchanged for a session of 30 minutes held in an httpOnly cookie; it is not stored in this
        browser.
      </p>
    </>
  );
}
