/**
 * What a project API key or a console session may do, from most to least (docs/access.md). The
 * gateway maps each role to a set of PERMISSIONS in one table; the console reads the permissions a
 * session holds from the session itself, so the browser never repeats that table.
 * - `owner`: everything, the project's keys and its existence included (every key issued before
 *   roles, and the admin key);
 * - `admin`: configuration and publishing events, and everything an operator does;
 * - `operator`: read, retry and operate: resend, force resend, replay, unblock, batch retry (no
 *   events published, no configuration: pausing an endpoint is `configure` in the contract);
 * - `viewer`: read only; the payloads of events and deliveries only with `view_payloads`.
 */
export const ROLES = ['owner', 'admin', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
