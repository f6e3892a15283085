import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU ms the whole machine has been busy so far, all cores together: /proc/stat's first line less
 * its idle and iowait columns (guest time is already inside user).
 */
export function machineBusyMs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return ((user + nice + system + irq + softirq + (steal || 0)) * 1000) / TICKS_PER_SECOND;
}
