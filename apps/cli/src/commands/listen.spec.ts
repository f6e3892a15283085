import { InvalidArgumentError } from 'commander';
import { CliError, EXIT } from '../exit-codes';
import { reconnectDelayMs } from '../listen/listen-stream';
import { eventTypeList, localUrlArg } from './listen';

describe('listen options', () => {
  it('takes any http(s) local URL and refuses the rest as a usage error', () => {
    expect(localUrlArg('http://localhost:3000/hooks')).toBe('http://localhost:3000/hooks');
    expect(localUrlArg('https://10.0.0.5/x?y=1')).toBe('https://10.0.0.5/x?y=1');
    for (const bad of ['localhost:3000', 'ftp://host/x', 'not a url', ''])
      expect(() => localUrlArg(bad)).toThrow(expect.objectContaining({ code: EXIT.usage }) as CliError);
  });

  it('reads --events as a comma-separated list, without blanks or repeats', () => {
    expect(eventTypeList('invoice.*, order.created,invoice.*')).toEqual(['invoice.*', 'order.created']);
    expect(() => eventTypeList(' , ')).toThrow(InvalidArgumentError);
    expect(() => eventTypeList('x'.repeat(201))).toThrow(InvalidArgumentError);
  });

  it('waits 1, 2, 4, then 5 seconds between reconnections', () => {
    expect([0, 1, 2, 3, 10].map(reconnectDelayMs)).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
});
