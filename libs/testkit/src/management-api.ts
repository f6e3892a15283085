/**
 * A JSON call to a running gateway's management API (`apiUrl` ends in `/api`) that must succeed;
 * returns the response's `data`. For tests of a whole deployment: a local stack, containers from
 * the image, a Helm release.
 */
export async function callApi<T = Record<string, unknown>>(
  apiUrl: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** Every item of a paginated list (`route` carries its query), following the cursor page after page. */
export async function listAllPages<T = Record<string, unknown>>(
  apiUrl: string,
  key: string,
  route: string,
): Promise<T[]> {
  const items: T[] = [];
  const sep = route.includes('?') ? '&' : '?';
  for (let cursor = ''; ;) {
    const page = await callApi<{
      content: T[];
      pagination: { has_next_page: boolean; next_page_cursor: string };
    }>(apiUrl, key, 'GET', `${route}${sep}perPage=100${cursor && `&next_page_cursor=${cursor}`}`);
    items.push(...page.content);
    if (!page.pagination.has_next_page) return items;
    cursor = page.pagination.next_page_cursor;
  }
}

/** An endpoint created through the API, with the signing secret it was given. */
export interface CreatedEndpoint {
  uid: string;
  secret: string;
}

/** Creates an endpoint in the project at `projectPath` (`/v1/projects/<id>`); returns its id and secret. */
export async function createEndpoint(
  apiUrl: string,
  key: string,
  projectPath: string,
  body: { name: string; url: string; owner_id?: string },
): Promise<CreatedEndpoint> {
  const created = await callApi<{ uid: string; secrets: { value: string }[] }>(
    apiUrl,
    key,
    'POST',
    `${projectPath}/endpoints`,
    body,
  );
  return { uid: created.uid, secret: created.secrets[created.secrets.length - 1].value };
}
