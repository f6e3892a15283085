import { withQuery } from '../components/format';
import { useConsole } from './context';
import { navigate } from './location';

/** Turns `?live=10` on or off: the page's data reloads on that timer while the tab is visible. */
export function LiveToggle() {
  const { where } = useConsole();
  const live = where.query.get('live');
  return (
    <p>
      <label>
        <input
          type="checkbox"
          id="live"
          checked={!!live}
          onChange={(e) =>
            navigate(
              withQuery(where.path, {
                ...Object.fromEntries(where.query),
                live: e.currentTarget.checked ? '10' : '',
              }),
              true,
            )
          }
        />{' '}
        Live refresh (every {live || '10'} s)
      </label>
    </p>
  );
}
